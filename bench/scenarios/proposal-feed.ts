/** The catalog's proposals handed out one or a batch at a time to concurrent clients. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { SyntheticCatalog } from '../generator/catalog';

export interface FedProposal {
  readonly proposal: MetadataChangeProposal;
  /** The first proposal of its entity: its entity becomes searchable with it. */
  readonly createsEntity: boolean;
}

export class ProposalFeed {
  private readonly source: Generator<FedProposal>;
  /** The proposal after the last handed out, once `takeEntities` has looked at it. */
  private ahead: FedProposal | undefined;
  /** Entities whose first proposal has been handed out. */
  entities = 0;

  /** `keep`: the proposals this feed hands out (a snapshot carries no time-series aspect); default all. */
  constructor(catalog: SyntheticCatalog, keep: (p: MetadataChangeProposal) => boolean = () => true) {
    this.source = (function* () {
      for (const entity of catalog.entities()) {
        const kept = entity.proposals.filter(keep);
        for (let i = 0; i < kept.length; i++) yield { proposal: kept[i]!, createsEntity: i === 0 };
      }
    })();
  }

  take(count: number): FedProposal[] {
    const out: FedProposal[] = [];
    while (out.length < count) {
      const next = this.next();
      if (!next) break;
      out.push(next);
    }
    return out;
  }

  /** Every proposal of the next `count` entities (the first may have begun in an earlier take). */
  takeEntities(count: number): FedProposal[] {
    const out: FedProposal[] = [];
    let started = 0;
    for (;;) {
      const next = this.peek();
      if (!next || (next.createsEntity && started === count)) return out;
      if (next.createsEntity || out.length === 0) started++;
      out.push(this.next()!);
    }
  }

  private peek(): FedProposal | undefined {
    if (!this.ahead) {
      const next = this.source.next();
      if (next.done) return undefined;
      this.ahead = next.value;
    }
    return this.ahead;
  }

  private next(): FedProposal | undefined {
    const next = this.peek();
    if (!next) return undefined;
    this.ahead = undefined;
    if (next.createsEntity) this.entities++;
    return next;
  }
}
