/** The catalog's proposals handed out one or a batch at a time to concurrent clients, up to a count. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { SyntheticCatalog } from '../generator/catalog';

export interface FedProposal {
  readonly proposal: MetadataChangeProposal;
  /** The first proposal of its entity: its entity becomes searchable with it. */
  readonly createsEntity: boolean;
}

export class ProposalFeed {
  private readonly source: Generator<FedProposal>;
  private handedOut = 0;
  /** Entities whose first proposal has been handed out. */
  entities = 0;

  constructor(
    catalog: SyntheticCatalog,
    private readonly limit = Infinity,
  ) {
    this.source = (function* () {
      for (const entity of catalog.entities()) {
        for (let i = 0; i < entity.proposals.length; i++) yield { proposal: entity.proposals[i]!, createsEntity: i === 0 };
      }
    })();
  }

  take(count: number): FedProposal[] {
    const out: FedProposal[] = [];
    while (out.length < count && this.handedOut < this.limit) {
      const next = this.source.next();
      if (next.done) break;
      this.handedOut++;
      if (next.value.createsEntity) this.entities++;
      out.push(next.value);
    }
    return out;
  }

  get count(): number {
    return this.handedOut;
  }
}
