/** The performance targets of issue 7 and how a run's figures compare with them. */
import type { ModeReport } from './report';

export interface TargetCheck {
  readonly mode: string;
  readonly name: string;
  readonly target: string;
  readonly actual?: number;
  readonly met?: boolean;
  /** How far off a missed target is, as a share of the target (0.25 = 25% off). */
  readonly missedBy?: number;
}

interface Target {
  readonly name: string;
  readonly unit: string;
  readonly kind: 'atLeast' | 'below';
  readonly bound: (r: ModeReport) => number | undefined;
  readonly actual: (r: ModeReport) => number | undefined;
}

const fixed = (n: number) => () => n;
const SEARCH_KINDS = ['freeText', 'field', 'filter', 'facets', 'rest'] as const;

const EMBEDDED: Target[] = [
  { name: 'ingestProposal, 16 clients: proposals/s', unit: '/s', kind: 'atLeast', bound: fixed(5000), actual: (r) => r.ingest?.proposalsPerSecond },
  { name: 'index lag p99', unit: 'ms', kind: 'below', bound: fixed(1000), actual: (r) => r.ingest?.indexLagMs.p99 },
  { name: 'entitiesV2 get p99', unit: 'ms', kind: 'below', bound: fixed(5), actual: (r) => r.reads?.single.latencyMs.p99 },
  ...SEARCH_KINDS.map(
    (k): Target => ({ name: `search p95 (${k})`, unit: 'ms', kind: 'below', bound: fixed(50), actual: (r) => r.search?.[k].latencyMs.p95 }),
  ),
  { name: 'autocomplete p95', unit: 'ms', kind: 'below', bound: fixed(20), actual: (r) => r.search?.autocomplete.latencyMs.p95 },
  { name: 'full index rebuild: aspects/s', unit: '/s', kind: 'atLeast', bound: fixed(20_000), actual: (r) => r.restore?.aspectsPerSecond },
  { name: 'resident memory after the load', unit: 'MB', kind: 'below', bound: fixed(300), actual: (r) => r.footprint.rssAfterLoadMb },
  { name: 'start to healthy', unit: 'ms', kind: 'below', bound: fixed(2000), actual: (r) => r.footprint.startToHealthyMs },
];

const DISTRIBUTED: Target[] = [
  {
    name: 'ingestProposal, 16 clients: proposals/s vs 50% of raw MongoDB bulk upserts',
    unit: '/s',
    kind: 'atLeast',
    bound: (r) => (r.raw?.mongoBulk ? r.raw.mongoBulk.rowsPerSecond / 2 : undefined),
    actual: (r) => r.ingest?.proposalsPerSecond,
  },
  {
    // Like for like: one upsert a round trip from as many writers as the ingest has clients.
    name: 'ingestProposal, 16 clients: proposals/s vs 50% of raw MongoDB single upserts from 16 writers',
    unit: '/s',
    kind: 'atLeast',
    bound: (r) => (r.raw?.mongoSingle ? r.raw.mongoSingle.rowsPerSecond / 2 : undefined),
    actual: (r) => r.ingest?.proposalsPerSecond,
  },
  {
    name: 'a Kafka burst, persisted: proposals/s vs 50% of raw MongoDB bulk upserts',
    unit: '/s',
    kind: 'atLeast',
    bound: (r) => (r.raw?.mongoBulk ? r.raw.mongoBulk.rowsPerSecond / 2 : undefined),
    actual: (r) => r.kafkaBurst?.persistedPerSecond,
  },
  { name: 'index lag p99, produced to Kafka at 2,000/s', unit: 'ms', kind: 'below', bound: fixed(2000), actual: (r) => r.kafka?.indexLagMs.p99 },
];

export function checkTargets(mode: string, report: ModeReport): TargetCheck[] {
  return (mode === 'embedded' ? EMBEDDED : DISTRIBUTED).map((t) => {
    const bound = t.bound(report);
    const actual = t.actual(report);
    const target = `${t.kind === 'atLeast' ? '≥' : '<'} ${bound === undefined ? '?' : Math.round(bound)} ${t.unit}`;
    if (bound === undefined || actual === undefined) return { mode, name: t.name, target };
    const met = t.kind === 'atLeast' ? actual >= bound : actual < bound;
    const missedBy = met ? undefined : Math.round((100 * Math.abs(actual - bound)) / bound) / 100;
    return { mode, name: t.name, target, actual, met, ...(missedBy !== undefined ? { missedBy } : {}) };
  });
}
