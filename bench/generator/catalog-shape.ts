/**
 * How many entities of each kind a catalog of N entities has, and each entity's identity. An
 * entity's random draws are seeded by (seed, kind, index), so any entity (and its URN) can be
 * produced alone, without generating the ones before it.
 */
import { Random } from './random';
import { BI_TOOLS, DOMAINS, ENVIRONMENTS, FIRST_NAMES, LAST_NAMES, NOUNS, PLATFORMS, QUALIFIERS, TAG_THEMES, TERM_THEMES } from './vocabulary';

export const ENTITY_KINDS = ['tag', 'glossaryTerm', 'corpuser', 'corpGroup', 'dataset', 'chart', 'dashboard'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** Shares of a catalog, in generation order: what others refer to comes first. */
const SHARES: Record<EntityKind, number> = {
  tag: 0.01,
  glossaryTerm: 0.01,
  corpuser: 0.08,
  corpGroup: 0.01,
  dataset: 0.64,
  chart: 0.18,
  dashboard: 0.07,
};
const MINIMUM: Record<EntityKind, number> = { tag: 2, glossaryTerm: 2, corpuser: 2, corpGroup: 1, dataset: 1, chart: 1, dashboard: 1 };

export interface DatasetIdentity {
  readonly platform: string;
  readonly env: string;
  readonly domain: string;
  readonly name: string;
}

function hashSeed(seed: number, kind: EntityKind, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const c of `${kind}/${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

export class CatalogShape {
  readonly counts: Readonly<Record<EntityKind, number>>;

  /** `namespace` prefixes every name, so two catalogs of one seed never share an entity. */
  constructor(
    readonly entities: number,
    readonly seed: number,
    readonly namespace: string,
  ) {
    const counts = {} as Record<EntityKind, number>;
    let assigned = 0;
    for (const kind of ENTITY_KINDS) {
      counts[kind] = Math.max(MINIMUM[kind], Math.floor(entities * SHARES[kind]));
      assigned += counts[kind];
    }
    counts.dataset = Math.max(MINIMUM.dataset, counts.dataset + entities - assigned);
    this.counts = counts;
  }

  /** The entity's own random source: its identity draws come first, its aspects' after. */
  random(kind: EntityKind, index: number): Random {
    return new Random(hashSeed(this.seed, kind, index));
  }

  datasetIdentity(index: number, random = this.random('dataset', index)): DatasetIdentity {
    const domain = random.pick(DOMAINS);
    const name = `${this.namespace}.${domain}.${random.pick(NOUNS)}_${random.pick(QUALIFIERS)}_${index}`;
    return { platform: random.pick(PLATFORMS), env: random.pick(ENVIRONMENTS), domain, name };
  }

  urn(kind: EntityKind, index: number, random = this.random(kind, index)): string {
    const ns = this.namespace;
    switch (kind) {
      case 'tag':
        return `urn:li:tag:${ns}_${TAG_THEMES[index % TAG_THEMES.length]}_${index}`;
      case 'glossaryTerm':
        return `urn:li:glossaryTerm:${ns}.${TERM_THEMES[index % TERM_THEMES.length]!.replace(/ /g, '')}.${index}`;
      case 'corpuser':
        return `urn:li:corpuser:${ns}.${random.pick(FIRST_NAMES)}.${random.pick(LAST_NAMES)}${index}`;
      case 'corpGroup':
        return `urn:li:corpGroup:${ns}.${DOMAINS[index % DOMAINS.length]}-team-${index}`;
      case 'dataset': {
        const d = this.datasetIdentity(index, random);
        return `urn:li:dataset:(urn:li:dataPlatform:${d.platform},${d.name},${d.env})`;
      }
      case 'chart':
        return `urn:li:chart:(${random.pick(BI_TOOLS)},${ns}.chart_${index})`;
      case 'dashboard':
        return `urn:li:dashboard:(${random.pick(BI_TOOLS)},${ns}.dashboard_${index})`;
    }
  }

  /** A random existing entity of a kind, by URN. */
  anyUrn(kind: EntityKind, random: Random, below = this.counts[kind]): string {
    return this.urn(kind, random.int(0, Math.max(0, Math.min(below, this.counts[kind]) - 1)));
  }

  /** How many entities the catalog has (the minimum of each kind can make it a few more than asked). */
  get total(): number {
    return ENTITY_KINDS.reduce((n, kind) => n + this.counts[kind], 0);
  }

  /** The `position`th entity in generation order. */
  nth(position: number): { kind: EntityKind; index: number } {
    let offset = 0;
    for (const kind of ENTITY_KINDS) {
      if (position < offset + this.counts[kind]) return { kind, index: position - offset };
      offset += this.counts[kind];
    }
    throw new RangeError(`the catalog has ${this.total} entities, not ${position + 1}`);
  }

  /** Every (kind, index) in generation order. */
  *members(): Generator<{ kind: EntityKind; index: number }> {
    for (const kind of ENTITY_KINDS) for (let index = 0; index < this.counts[kind]; index++) yield { kind, index };
  }
}
