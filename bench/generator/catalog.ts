/** The seeded synthetic catalog: every entity with the proposals that describe it. */
import type { MetadataChangeProposal } from '@cairn/events';
import { CatalogShape, type EntityKind } from './catalog-shape';
import { chartProposals, dashboardProposals } from './dashboards';
import { datasetProposals } from './datasets';
import { tagProposals, termProposals } from './labels';
import { groupProposals, userProposals } from './people';

export interface GeneratedEntity {
  readonly kind: EntityKind;
  readonly index: number;
  readonly urn: string;
  readonly proposals: readonly MetadataChangeProposal[];
}

export interface CatalogOptions {
  readonly entities: number;
  readonly seed: number;
  readonly namespace: string;
  /** Profiles and usage (time-series aspects) for some datasets. */
  readonly timeseries: boolean;
}

export class SyntheticCatalog {
  readonly shape: CatalogShape;

  constructor(readonly options: CatalogOptions) {
    this.shape = new CatalogShape(options.entities, options.seed, options.namespace);
  }

  entity(kind: EntityKind, index: number): GeneratedEntity {
    const random = this.shape.random(kind, index);
    const proposals = this.proposalsOf(kind, index, random);
    return { kind, index, urn: proposals[0]!.entityUrn!, proposals };
  }

  private proposalsOf(kind: EntityKind, index: number, random: ReturnType<CatalogShape['random']>): MetadataChangeProposal[] {
    switch (kind) {
      case 'tag':
        return tagProposals(this.shape, index, random);
      case 'glossaryTerm':
        return termProposals(this.shape, index, random);
      case 'corpuser':
        return userProposals(this.shape, index, random);
      case 'corpGroup':
        return groupProposals(this.shape, index, random);
      case 'dataset':
        return datasetProposals(this.shape, index, random, this.options.timeseries);
      case 'chart':
        return chartProposals(this.shape, index, random);
      case 'dashboard':
        return dashboardProposals(this.shape, index, random);
    }
  }

  *entities(): Generator<GeneratedEntity> {
    for (const { kind, index } of this.shape.members()) yield this.entity(kind, index);
  }

  /** Every proposal in order: an entity's proposals stay together and in order. */
  *proposals(): Generator<MetadataChangeProposal> {
    for (const e of this.entities()) yield* e.proposals;
  }
}
