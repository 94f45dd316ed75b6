/** `npm run bench -- [options]`: what to run, at which scale, and where the report goes. */
import type { Mode } from './deployments/deployment';

export const SCENARIOS = ['ingest', 'batch', 'snapshots', 'kafka', 'reads', 'search', 'restore', 'overload', 'raw'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  readonly modes: readonly Mode[];
  readonly entities: number;
  readonly seed: number;
  readonly scenarios: ReadonlySet<Scenario>;
  /** Concurrent ingest clients (the reference's REST sink sends from 16). */
  readonly clients: number;
  /** Concurrent clients of the read and search scenarios. */
  readonly readClients: number;
  readonly batchSize: number;
  /**
   * When set, the `ingest` scenario loads the catalog through `ingestProposalBatch` requests of this
   * many proposals instead of one per request: a million entities one per request take hours here.
   */
  readonly loadBatchSize?: number;
  /** Entities of the `batch` scenario's catalog, and of the `snapshots` scenario's. */
  readonly batchEntities: number;
  /** Entities whose snapshots one `batchIngest` request carries. */
  readonly snapshotBatch: number;
  readonly maxIngestSeconds: number;
  /** Requests of each read and search kind, bounded by `readSeconds` too. */
  readonly readRequests: number;
  /** Requests of each read and search kind sent first and not measured (JIT and caches warm up). */
  readonly warmupRequests: number;
  /** Distributed: seconds a throwaway deployment is sent `ingestProposal` requests first, so the servers' JVMs have compiled their hot paths. */
  readonly serverWarmupSeconds: number;
  readonly readSeconds: number;
  readonly kafkaRate: number;
  readonly kafkaEntities: number;
  readonly kafkaBurstEntities: number;
  readonly overloadClients: number;
  readonly overloadSeconds: number;
  readonly profile: boolean;
  readonly out?: string;
  readonly keepData: boolean;
  /** Embedded: authentication on (the distributed gms always has it), the benchmark the system client. */
  readonly auth: boolean;
}

export const USAGE = `usage: npm run bench -- [options]
  --mode embedded|distributed|both   deployments to measure (default embedded)
  --entities N                       catalog size (default 10000; 100000 and 1000000 are the documented scales)
  --seed N                           catalog seed (default 42)
  --scenarios a,b,...                of ${SCENARIOS.join(', ')} (default all; kafka only runs distributed)
  --clients N                        concurrent ingest clients (default 16)
  --read-clients N                   concurrent read/search clients (default 4)
  --batch-size N                     proposals per ingestProposalBatch request (default 100)
  --load-batch-size N                the ingest scenario loads the catalog through ingestProposalBatch of N (default: one proposal per request)
  --batch-entities N                 entities ingested through ingestProposalBatch, and through batchIngest (default entities/10)
  --snapshot-batch N                 entities' snapshots per batchIngest request (default 10)
  --max-ingest-seconds N             cap of each ingest phase (default 900)
  --read-requests N                  requests per read/search kind (default 5000, within --read-seconds)
  --warmup-requests N                unmeasured requests of each read/search kind sent first (default 2000, within --read-seconds)
  --server-warmup-seconds N          distributed: seconds of ingestProposal requests to a throwaway deployment first, to warm the servers up (default 0: none)
  --read-seconds N                   cap per read/search kind (default 5)
  --kafka-rate N                     proposals/s produced straight to Kafka (default 2000)
  --kafka-entities N                 entities produced straight to Kafka (default entities/10)
  --kafka-burst-entities N           entities produced to Kafka at once, timed until persisted (default entities)
  --overload-clients N               clients of the overload scenario (default 512)
  --overload-seconds N               its duration (default 10)
  --profile                          CPU-profile the service processes and summarize the hot spots
  --out FILE                         JSON report (default bench/reports/<mode>-<entities>-<time>.json)
  --keep-data                        keep the embedded data directory
  --auth                             embedded: authentication on, called as the system client (distributed: always on)`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--help' || a === '-h') throw new Error(USAGE);
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}\n${USAGE}`);
    if (a === '--profile' || a === '--keep-data' || a === '--auth') flags.add(a);
    else {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      values.set(a, v);
    }
  }
  const int = (name: string, fallback: number) => {
    const raw = values.get(name);
    values.delete(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
    return n;
  };
  const mode = values.get('--mode') ?? 'embedded';
  values.delete('--mode');
  if (!['embedded', 'distributed', 'both'].includes(mode)) throw new Error(`--mode must be embedded, distributed or both\n${USAGE}`);
  const scenarioList = (values.get('--scenarios') ?? SCENARIOS.join(',')).split(',').map((s) => s.trim());
  values.delete('--scenarios');
  for (const s of scenarioList) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario ${s}\n${USAGE}`);
  const out = values.get('--out');
  values.delete('--out');
  const entities = int('--entities', 10_000);
  const loadBatchSize = int('--load-batch-size', 0);
  const options: BenchOptions = {
    modes: mode === 'both' ? ['embedded', 'distributed'] : [mode as Mode],
    entities,
    seed: int('--seed', 42),
    scenarios: new Set(scenarioList as Scenario[]),
    clients: int('--clients', 16),
    readClients: int('--read-clients', 4),
    batchSize: int('--batch-size', 100),
    ...(loadBatchSize ? { loadBatchSize } : {}),
    batchEntities: int('--batch-entities', Math.max(100, Math.floor(entities / 10))),
    snapshotBatch: int('--snapshot-batch', 10),
    maxIngestSeconds: int('--max-ingest-seconds', 900),
    readRequests: int('--read-requests', 5000),
    warmupRequests: int('--warmup-requests', 2000),
    serverWarmupSeconds: int('--server-warmup-seconds', 0),
    readSeconds: int('--read-seconds', 5),
    kafkaRate: int('--kafka-rate', 2000),
    kafkaEntities: int('--kafka-entities', Math.max(100, Math.floor(entities / 10))),
    kafkaBurstEntities: int('--kafka-burst-entities', entities),
    overloadClients: int('--overload-clients', 512),
    overloadSeconds: int('--overload-seconds', 10),
    profile: flags.has('--profile'),
    ...(out ? { out } : {}),
    keepData: flags.has('--keep-data'),
    auth: flags.has('--auth'),
  };
  if (values.size) throw new Error(`unknown option ${[...values.keys()].join(', ')}\n${USAGE}`);
  return options;
}
