/** The run's figures: a table on stdout and a JSON report with the machine, the options and the targets. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { formatIndexWork, type IndexWorkDelta, type ServerWarmth } from './deployments/elastic-work';
import type { RawResult } from './raw/aspect-rows';
import type { IngestResult } from './scenarios/ingest';
import type { KafkaBurstResult } from './scenarios/kafka-burst';
import type { KafkaProduceResult } from './scenarios/kafka-produce';
import type { LoopResult } from './scenarios/closed-loop';
import type { OverloadResult } from './scenarios/overload';
import type { ReadsResult } from './scenarios/reads';
import type { RestoreResult } from './scenarios/restore';
import type { SearchKind } from './scenarios/search';
import type { ProfileSummary } from './profile-summary';
import type { TargetCheck } from './targets';

export interface Footprint {
  readonly startToHealthyMs: number;
  readonly idleRssMb: number;
  /** At the moment the load ends: the V8 heap still holds the load's garbage. */
  readonly rssAtLoadEndMb?: number;
  /** Once the heap has settled after the load (what the service keeps holding). */
  readonly rssAfterLoadMb?: number;
  readonly settleSeconds?: number;
  readonly peakRssMb?: number;
  /** Restart on the loaded data. */
  readonly restartToHealthyMs?: number;
  readonly rssAfterRestartMb?: number;
}

/** Proposals sent before the measured scenarios, untimed, so that what they measure is warm. */
export interface Warmup {
  readonly proposals: number;
  readonly seconds: number;
}

export interface ModeReport {
  readonly catalog: { readonly entities: number; readonly proposals?: number };
  /** What a throwaway deployment ingested before the measured one started (distributed mode). */
  readonly serverWarmup?: Warmup;
  /** How long Elasticsearch had run, and how much CPU it had spent, when the measured deployment started (distributed mode). */
  readonly elasticsearchAtStart?: ServerWarmth;
  /** The distributed services' own warm-up before the Kafka scenarios, when no ingest ran before them. */
  kafkaServicesWarmup?: Warmup;
  footprint: Footprint;
  /** Proposal-sized `ingestProposal` requests refused at once (400): the ingest's HTTP path alone. */
  ingestFloor?: LoopResult;
  ingest?: IngestResult;
  /** The catalog loaded through `ingestProposalBatch` instead (`--load-batch-size`): no one-per-request figures. */
  load?: IngestResult & { readonly proposalsPerRequest: number };
  batch?: IngestResult;
  /** Through `batchIngest`: its proposals are the snapshots' aspects. */
  snapshots?: IngestResult;
  kafka?: KafkaProduceResult;
  kafkaBurst?: KafkaBurstResult;
  reads?: ReadsResult;
  search?: Record<SearchKind, LoopResult>;
  restore?: RestoreResult;
  overload?: OverloadResult;
  raw?: { sqlite?: RawResult; mongoBulk?: RawResult; mongoSingle?: RawResult; elasticBulk?: RawResult };
  /** Pipeline figure ÷ the raw backend's, in the same run. */
  ratios?: Record<string, number>;
  profiles?: Record<string, ProfileSummary>;
  errors?: Record<string, string>;
}

export interface BenchReport {
  readonly generatedAt: string;
  readonly command: string;
  readonly machine: Record<string, unknown>;
  readonly options: Record<string, unknown>;
  readonly modes: Record<string, ModeReport>;
  readonly targets: TargetCheck[];
}

export function machine(): Record<string, unknown> {
  const cpu = cpus();
  return {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model,
    memoryMb: Math.round(totalmem() / 2 ** 20),
    freeMemoryMb: Math.round(freemem() / 2 ** 20),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    os: `${process.platform} ${release()}`,
  };
}

/** Indices of a scenario's Elasticsearch work the table shows. */
const ELASTIC_INDICES_SHOWN = 3;

const fmt = (v: number | undefined, unit = '') => (v === undefined ? '-' : `${Number.isInteger(v) ? v : v.toFixed(1)}${unit}`);
const lat = (l: Record<string, number | undefined> | undefined, keys = ['p50', 'p99']) => (l ? keys.map((k) => `${k} ${fmt(l[k])}`).join(' / ') + ' ms' : '-');
const loop = (r: LoopResult, keys: string[]) =>
  `${lat(r.latencyMs, keys)} (${r.perSecond}/s${r.serverCpuUsPerRequest !== undefined ? `, ${r.serverCpuUsPerRequest} µs CPU each` : ''}${r.errors ? `, ${r.errors} errors` : ''})`;

/** One line per figure: scenario, what was measured, the value. */
export function tableRows(report: ModeReport): [string, string, string][] {
  const rows: [string, string, string][] = [];
  const f = report.footprint;
  if (report.serverWarmup) {
    const w = report.serverWarmup;
    rows.push(['warmup', 'servers warmed up by a throwaway deployment', `${w.proposals} proposals through ingestProposal in ${w.seconds} s`]);
  }
  if (report.elasticsearchAtStart) {
    const e = report.elasticsearchAtStart;
    rows.push(['servers', 'elasticsearch when the run started', `up ${e.upSeconds} s, ${e.cpuSeconds} s of CPU since`]);
  }
  rows.push(['footprint', 'start to healthy (empty / loaded)', `${fmt(f.startToHealthyMs, ' ms')} / ${fmt(f.restartToHealthyMs, ' ms')}`]);
  rows.push(['footprint', 'RSS idle / at load end / settled / peak / after restart', `${fmt(f.idleRssMb)} / ${fmt(f.rssAtLoadEndMb)} / ${fmt(f.rssAfterLoadMb)} (${fmt(f.settleSeconds)} s later) / ${fmt(f.peakRssMb)} / ${fmt(f.rssAfterRestartMb)} MB`]);
  // Busiest first; idle threads are not in the figures, and V8's and libuv's helpers are one (`node`).
  const threads = (name: string, cores: Record<string, number> | undefined, backendCores?: Record<string, number>, elasticByIndex?: readonly IndexWorkDelta[]) => {
    const busy = Object.entries(cores ?? {});
    if (busy.length > 0) rows.push([name, 'catalog cores busy by thread', busy.map(([t, c]) => `${t} ${c.toFixed(2)}`).join(', ')]);
    const servers = Object.entries(backendCores ?? {});
    if (servers.length > 0) rows.push([name, "backends' servers: cores busy", servers.map(([b, c]) => `${b} ${c.toFixed(2)}`).join(', ')]);
    // The busiest few; the JSON report has every index.
    for (const d of (elasticByIndex ?? []).slice(0, ELASTIC_INDICES_SHOWN)) rows.push([name, `elasticsearch: ${d.index}`, formatIndexWork(d)]);
  };
  const ingest = (name: string, r: IngestResult | undefined, unit = 'proposal') => {
    if (!r) return;
    rows.push([name, `${unit}s acknowledged`, `${r.proposals} in ${r.seconds} s = ${r.proposalsPerSecond}/s (429: ${r.tooManyRequests}, failed: ${r.failed})`]);
    rows.push([name, 'request latency', lat(r.latencyMs)]);
    rows.push([name, `catalog CPU per ${unit}`, `${fmt(r.serverCpuUsPerProposal, ' µs')} (load generator ${fmt(r.generatorCpuUsPerProposal, ' µs')})`]);
    threads(name, r.serverCoresByThread, r.backendCores, r.elasticByIndex);
    rows.push([name, 'index lag', `${lat(r.indexLagMs)}; all searchable ${fmt(r.allSearchableAfterMs, ' ms')} after the last ack`]);
  };
  if (report.ingestFloor) rows.push(['ingest', 'HTTP floor: the same requests refused (400)', `${loop(report.ingestFloor, ['p50', 'p99'])}, load generator ${report.ingestFloor.generatorCpuUsPerRequest} µs each`]);
  ingest('ingest', report.ingest);
  if (report.load) ingest(`load (batches of ${report.load.proposalsPerRequest})`, report.load);
  ingest('batch', report.batch);
  ingest('snapshots', report.snapshots, 'aspect');
  if (report.kafkaServicesWarmup) {
    const w = report.kafkaServicesWarmup;
    rows.push(['kafka', 'services warmed up first (untimed)', `${w.proposals} proposals produced in ${w.seconds} s`]);
  }
  if (report.kafka) {
    const k = report.kafka;
    rows.push(['kafka', 'produced (acked by Kafka)', `${k.proposals} in ${k.seconds} s = ${k.proposalsPerSecond}/s`]);
    rows.push(['kafka', 'catalog CPU per proposal', `${fmt(k.serverCpuUsPerProposal, ' µs')} (load generator ${fmt(k.generatorCpuUsPerProposal, ' µs')})`]);
    threads('kafka', k.serverCoresByThread, k.backendCores, k.elasticByIndex);
    rows.push(['kafka', 'index lag', `${lat(k.indexLagMs)}; all searchable ${fmt(k.allSearchableAfterMs, ' ms')} after the last ack`]);
  }
  if (report.kafkaBurst) {
    const b = report.kafkaBurst;
    rows.push(['kafka burst', 'persisted', `${b.proposals} in ${b.persistedSeconds} s = ${b.persistedPerSecond}/s (all acked by Kafka after ${b.producedSeconds} s)`]);
    rows.push(['kafka burst', 'catalog CPU per proposal', `${fmt(b.serverCpuUsPerProposal, ' µs')} (load generator ${fmt(b.generatorCpuUsPerProposal, ' µs')})`]);
    threads('kafka burst', b.serverCoresByThread, b.backendCores, b.elasticByIndex);
    rows.push(['kafka burst', 'all searchable', `${fmt(b.allSearchableAfterMs, ' ms')} after the last persisted`]);
  }
  if (report.reads) {
    rows.push(['reads', 'entitiesV2 get', loop(report.reads.single, ['p50', 'p99'])]);
    rows.push(['reads', 'entitiesV2 batch get of 10', loop(report.reads.batch, ['p50', 'p99'])]);
    rows.push(['reads', 'HTTP floor: GET /config', loop(report.reads.httpFloor, ['p50', 'p99'])]);
    threads('reads', report.reads.serverCoresByThread, report.reads.backendCores, report.reads.elasticByIndex);
  }
  for (const [kind, r] of Object.entries(report.search ?? {})) {
    rows.push(['search', kind, loop(r, ['p50', 'p95', 'p99'])]);
  }
  if (report.restore) {
    const r = report.restore;
    rows.push(['restore', 'full index rebuild', `${r.aspects} aspects in ${r.seconds} s = ${r.aspectsPerSecond}/s (${fmt(r.serverCpuUsPerAspect, ' µs')} CPU each)`]);
    threads('restore', r.serverCoresByThread, r.backendCores, r.elasticByIndex);
    const w = r.writesDuring;
    rows.push(['restore', `writes during it (${w.perSecond}/s)`, `${w.acknowledged} acked, 429: ${w.refused}, errors: ${w.otherErrors}, ${lat(w.latencyMs)}`]);
  }
  if (report.overload) {
    const o = report.overload;
    rows.push(['overload', `${o.clients} clients for ${o.seconds} s`, `${o.acknowledged} acked (${o.acknowledgedPerSecond}/s), 429: ${o.tooManyRequests}, 504: ${o.timedOut504}, errors: ${o.otherErrors}`]);
    rows.push(['overload', 'latency / max lag / peak RSS', `${lat(o.latencyMs)} / ${o.maxLag} records / ${o.peakRssMb} MB`]);
    rows.push(['overload', 'acknowledged writes missing afterwards', `${o.missing} of ${o.checked} (drained ${fmt(o.drainedAfterMs, ' ms')} after)`]);
  }
  for (const [name, r] of Object.entries(report.raw ?? {})) if (r) rows.push(['raw', name, `${r.rows} rows in ${r.seconds} s = ${r.rowsPerSecond}/s`]);
  for (const [name, ratio] of Object.entries(report.ratios ?? {})) rows.push(['ratio', name, ratio.toFixed(3)]);
  for (const [name, error] of Object.entries(report.errors ?? {})) rows.push(['error', name, error.slice(0, 200)]);
  return rows;
}

export function formatTable(rows: [string, string, string][]): string {
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([a, b, c]) => `  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`).join('\n');
}

export function formatTargets(checks: TargetCheck[]): string {
  return checks
    .map((c) => {
      const status = c.met === undefined ? 'n/a ' : c.met ? 'met ' : 'MISS';
      const off = c.missedBy !== undefined ? ` (off by ${Math.round(c.missedBy * 100)}%)` : '';
      return `  ${status}  ${c.mode.padEnd(11)} ${c.name.padEnd(62)} ${c.target.padEnd(12)} actual ${fmt(c.actual)}${off}`;
    })
    .join('\n');
}

export function writeReport(file: string, report: BenchReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
}
