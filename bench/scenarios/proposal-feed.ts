/**
 * The catalog's proposals made as they are taken, one or a batch at a time, for the overload, which
 * takes only what a while can send from a catalog of ten times the entities. The ingests take
 * theirs from a spool written before they start (proposal-spool.ts).
 */
import type { MetadataChangeProposal } from '@cairn/events';
import type { SyntheticCatalog } from '../generator/catalog';

export interface FedProposal {
  readonly proposal: MetadataChangeProposal;
  /** The first proposal of its entity: its entity becomes searchable with it. */
  readonly createsEntity: boolean;
}

export class ProposalFeed {
  private readonly source: Generator<FedProposal>;
  /** Entities whose first proposal has been handed out. */
  entities = 0;

  constructor(catalog: SyntheticCatalog) {
    this.source = (function* () {
      for (const entity of catalog.entities()) {
        for (let i = 0; i < entity.proposals.length; i++) yield { proposal: entity.proposals[i]!, createsEntity: i === 0 };
      }
    })();
  }

  take(count: number): FedProposal[] {
    const out: FedProposal[] = [];
    while (out.length < count) {
      const next = this.source.next();
      if (next.done) break;
      if (next.value.createsEntity) this.entities++;
      out.push(next.value);
    }
    return out;
  }
}
