/**
 * One deployment mode through every scenario asked for, in an order where each builds on the
 * last: load the catalog, read and search it, ingest in batches, rebuild the indexes, restart;
 * then overload a fresh deployment, and write the same rows straight to the raw backends.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import { CatalogClient } from './client/catalog-client';
import { fitsSnapshot } from './client/snapshots';
import { backendsFromEnv, type Backends } from '../deploy/local/prefixed-run';
import type { Deployment, Mode } from './deployments/deployment';
import { startDistributed } from './deployments/distributed';
import { startEmbedded } from './deployments/embedded';
import { indexWorkBetween, readServerWarmth, type IndexWorkDelta } from './deployments/elastic-work';
import { coresByThread } from './deployments/thread-cpu';
import { SyntheticCatalog } from './generator/catalog';
import type { BenchOptions } from './options';
import { summarizeProfile } from './profile-summary';
import { rawElastic } from './raw/raw-elastic';
import { rawMongo } from './raw/raw-mongo';
import { rawSqlite } from './raw/raw-sqlite';
import type { ModeReport, Warmup } from './report';
import { runIngest, type IngestRequest } from './scenarios/ingest';
import { runIngestFloor } from './scenarios/ingest-floor';
import { runKafkaBurst } from './scenarios/kafka-burst';
import { mcpSpoolSerializer, runKafkaProduce } from './scenarios/kafka-produce';
import { runOverload } from './scenarios/overload';
import { spoolProposals, type ProposalSpool, type SpoolSerializer } from './scenarios/proposal-spool';
import { runReads } from './scenarios/reads';
import { runRestore } from './scenarios/restore';
import { runSearch } from './scenarios/search';
import { cpuUsPerUnit, round, sleep } from './stats';

/** Bounds of the ingest's HTTP floor (measured before the ingest, on the same clients). */
const INGEST_FLOOR_REQUESTS = 20_000;
const INGEST_FLOOR_SECONDS = 20;

/** Names of the catalogs of a run: each scenario writes entities of its own. */
const NAMESPACES = { load: 'c', batch: 'b', snapshots: 's', kafka: 'k', kafkaBurst: 'u', overload: 'o', serverWarmup: 'w', kafkaServicesWarmup: 'v' } as const;
const RAW_SECONDS = 60;
/** The server warm-up's catalog: more entities a second than its ingest takes, so it ends at its deadline. */
const WARMUP_ENTITIES_PER_SECOND = 100;

export interface RunContext {
  readonly options: BenchOptions;
  readonly runId: string;
  readonly workDir: string;
  log(message: string): void;
}

function catalogOf(ctx: RunContext, namespace: string, entities: number, timeseries = true): SyntheticCatalog {
  return new SyntheticCatalog({ entities, seed: ctx.options.seed, namespace, timeseries });
}

/** `catalog`'s proposals written out for an ingest, before it starts (proposal-spool.ts): JSON for REST unless `serialize` says otherwise. */
function spoolOf(ctx: RunContext, catalog: SyntheticCatalog, keep?: (p: MetadataChangeProposal) => boolean, serialize?: SpoolSerializer): ProposalSpool {
  const dir = join(ctx.workDir, 'spool');
  mkdirSync(dir, { recursive: true });
  return spoolProposals(catalog.entities(), join(dir, `${catalog.options.namespace}.spool`), keep, undefined, serialize);
}

/** Names every topic, index and database of one distributed deployment of the run. */
const prefixOf = (ctx: RunContext, label: string) => `bench${ctx.runId}${label}`.toLowerCase();

async function deploy(ctx: RunContext, mode: Mode, backends: Backends, label: string, env: Record<string, string> = {}): Promise<Deployment> {
  const logDir = join(ctx.workDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const profileDir = ctx.options.profile ? join(ctx.workDir, 'profiles', `${mode}-${label}`) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const common = { logDir, env, ...(profileDir ? { profileDir } : {}) };
  return mode === 'embedded'
    ? startEmbedded({ ...common, keepData: ctx.options.keepData, auth: ctx.options.auth })
    : startDistributed({ ...common, backends, prefix: prefixOf(ctx, label) });
}

/**
 * Elasticsearch's JVM, freshly started, took four runs of 6,251 proposals to halve its CPU per
 * proposal (docs/performance-log.md, run AQ), and 18,803 proposals in batches of 100 did not do it: a
 * throwaway deployment of its own prefix is sent what the ingest sends, one proposal a request from
 * as many clients, for a while first, then dropped with its data.
 */
async function warmUpServers(ctx: RunContext, backends: Backends): Promise<Warmup | undefined> {
  const { options } = ctx;
  if (options.serverWarmupSeconds === 0) return undefined;
  ctx.log(`warming the servers up (${options.serverWarmupSeconds} s)...`);
  const started = performance.now();
  const deployment = await deploy(ctx, 'distributed', backends, 'warmup');
  const client = new CatalogClient(deployment, options.clients + 2);
  try {
    // More entities than the while can take: it ends at the deadline, once what it sent is searchable.
    const feed = spoolOf(ctx, catalogOf(ctx, NAMESPACES.serverWarmup, Math.max(1000, options.serverWarmupSeconds * WARMUP_ENTITIES_PER_SECOND)));
    const request = { action: 'ingestProposal' } as const;
    try {
      const result = await runIngest(client, feed, { clients: options.clients, request, maxSeconds: options.serverWarmupSeconds, expectSearchable: (n) => n });
      return { proposals: result.proposals, seconds: round((performance.now() - started) / 1000, 1)! };
    } finally {
      feed.close();
    }
  } finally {
    client.close();
    await deployment.stop();
  }
}

/** Busy time a thread's profile needs to be summarized: the threads that did the run's work, not the idle ones. */
const PROFILED_BUSY_MS = 1000;

/**
 * The profile of each thread of each service process (`CPU.<date>.<time>.<pid>.<thread>.<n>`, the
 * main thread 0) that was busy a second or more: the embedded catalog's pipeline and search writer
 * threads do most of an ingest's work.
 */
function profilesOf(dir: string): Record<string, ReturnType<typeof summarizeProfile>> {
  const summaries: Record<string, ReturnType<typeof summarizeProfile>> = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.cpuprofile')).sort()) {
    const summary = summarizeProfile(join(dir, f), 20);
    if (summary.totalMs * (1 - summary.idlePercent / 100) >= PROFILED_BUSY_MS) summaries[f] = summary;
  }
  return summaries;
}

/**
 * The deployment's CPU time while `run` runs, and the load generator's (this process's), in µs per
 * unit of work, and the cores each of its threads, and each local backend's server, kept busy meanwhile.
 */
async function withCpu<T>(
  deployment: Deployment,
  run: () => Promise<T>,
  units: (result: T) => number,
): Promise<{ result: T; usPerUnit: number; generatorUsPerUnit: number; cores: Record<string, number>; backendCores: Record<string, number>; elasticByIndex?: IndexWorkDelta[] }> {
  const elasticBefore = await deployment.elasticIndexWork();
  const generatorBefore = process.cpuUsage();
  const before = deployment.cpuMs();
  const threadsBefore = deployment.threadCpuMs();
  const backendsBefore = deployment.backendCpuMs();
  const started = performance.now();
  const result = await run();
  const wallMs = performance.now() - started;
  const cores = coresByThread(threadsBefore, deployment.threadCpuMs(), wallMs);
  const backendCores = coresByThread(backendsBefore, deployment.backendCpuMs(), wallMs);
  const usPerUnit = round((1000 * (deployment.cpuMs() - before)) / Math.max(1, units(result)), 0)!;
  const generatorUsPerUnit = cpuUsPerUnit(generatorBefore, units(result));
  const elasticAfter = elasticBefore && (await deployment.elasticIndexWork());
  return { result, usPerUnit, generatorUsPerUnit, cores, backendCores, ...(elasticBefore && elasticAfter ? { elasticByIndex: indexWorkBetween(elasticBefore, elasticAfter) } : {}) };
}

/** Runs a scenario; a failure is recorded in the report and the run goes on. */
async function attempt(ctx: RunContext, report: ModeReport, name: string, run: () => Promise<void>): Promise<void> {
  ctx.log(`${name}...`);
  try {
    await run();
  } catch (err) {
    (report.errors ??= {})[name] = (err as Error).stack ?? String(err);
    ctx.log(`${name} failed: ${(err as Error).message}`);
  }
}

export async function runMode(ctx: RunContext, mode: Mode): Promise<ModeReport> {
  const { options } = ctx;
  const has = (s: Parameters<typeof options.scenarios.has>[0]) => options.scenarios.has(s);
  const backends = backendsFromEnv();
  const catalog = catalogOf(ctx, NAMESPACES.load, options.entities);
  const serverWarmup = mode === 'distributed' ? await warmUpServers(ctx, backends) : undefined;
  const elasticsearchAtStart = mode === 'distributed' ? await readServerWarmth(backends.elasticsearch) : undefined;
  ctx.log(`${mode}: starting`);
  const deployment = await deploy(ctx, mode, backends, 'main');
  const report: ModeReport = {
    ...(serverWarmup ? { serverWarmup } : {}),
    ...(elasticsearchAtStart ? { elasticsearchAtStart } : {}),
    catalog: { entities: catalog.shape.total },
    footprint: { startToHealthyMs: round(deployment.startToHealthyMs, 0)!, idleRssMb: round(deployment.memory().rssMb, 0)! },
  };
  const client = new CatalogClient(deployment, Math.max(options.clients, options.readClients) + 2);
  const readBounds = { clients: options.readClients, requests: options.readRequests, warmup: options.warmupRequests, seconds: options.readSeconds, serverCpuMs: () => deployment.cpuMs() };
  let searchable = 0;
  /** Ingests a catalog over REST; search then finds its entities besides those already there. */
  const ingest = async (source: SyntheticCatalog, request: IngestRequest) => {
    const feed = spoolOf(ctx, source, request.action === 'batchIngest' ? (p) => fitsSnapshot(request.registry, p) : undefined);
    const before = searchable;
    const { result, usPerUnit, generatorUsPerUnit, cores, backendCores, elasticByIndex } = await withCpu(
      deployment,
      () => runIngest(client, feed, { clients: options.clients, request, maxSeconds: options.maxIngestSeconds, expectSearchable: (n) => before + n }),
      (r) => r.proposals,
    ).finally(() => feed.close());
    searchable += feed.entities;
    return { ...result, serverCpuUsPerProposal: usPerUnit, serverCoresByThread: cores, backendCores, elasticByIndex, generatorCpuUsPerProposal: generatorUsPerUnit };
  };
  try {
    if (has('ingest')) {
      await attempt(ctx, report, 'ingest', async () => {
        if (options.loadBatchSize) {
          report.load = { ...(await ingest(catalog, { action: 'ingestProposalBatch', proposals: options.loadBatchSize })), proposalsPerRequest: options.loadBatchSize };
        } else {
          report.ingestFloor = await runIngestFloor(client, catalog, {
            clients: options.clients,
            requests: INGEST_FLOOR_REQUESTS,
            warmup: options.warmupRequests,
            seconds: INGEST_FLOOR_SECONDS,
            serverCpuMs: () => deployment.cpuMs(),
          });
          report.ingest = await ingest(catalog, { action: 'ingestProposal' });
          report.ratios = { ...report.ratios, 'ingestProposal / its HTTP floor': round(report.ingest.proposalsPerSecond / report.ingestFloor.perSecond, 3)! };
        }
        const atEnd = deployment.memory();
        const settled = await settledMemory(deployment);
        report.footprint = {
          ...report.footprint,
          rssAtLoadEndMb: round(atEnd.rssMb, 0)!,
          rssAfterLoadMb: round(settled.rssMb, 0)!,
          settleSeconds: settled.seconds,
          peakRssMb: round(atEnd.peakRssMb, 0)!,
        };
      });
    }
    if (has('reads')) {
      await attempt(ctx, report, 'reads', async () => {
        const { result, cores, backendCores, elasticByIndex } = await withCpu(deployment, () => runReads(client, catalog, readBounds), (r) => r.single.requests + r.batch.requests + r.httpFloor.requests);
        report.reads = { ...result, serverCoresByThread: cores, backendCores, elasticByIndex };
      });
    }
    if (has('search')) {
      await attempt(ctx, report, 'search', async () => {
        report.search = await runSearch(client, catalog, readBounds);
      });
    }
    if (has('batch')) {
      await attempt(ctx, report, 'batch', async () => {
        report.batch = await ingest(catalogOf(ctx, NAMESPACES.batch, options.batchEntities), { action: 'ingestProposalBatch', proposals: options.batchSize });
      });
    }
    if (has('snapshots')) {
      await attempt(ctx, report, 'snapshots', async () => {
        const request = { action: 'batchIngest', entities: options.snapshotBatch, registry: defaultRegistry() } as const;
        report.snapshots = await ingest(catalogOf(ctx, NAMESPACES.snapshots, options.batchEntities), request);
      });
    }
    if (has('kafka') && mode === 'distributed') {
      const proposalsTopic = {
        brokers: backends.kafka,
        topic: `${prefixOf(ctx, 'main')}_MetadataChangeProposal_v1`,
        registryUrl: `${deployment.baseUrl}/schema-registry/api`,
        ...(deployment.authorization ? { authorization: deployment.authorization } : {}),
      };
      // The schema is registered once, by the first scenario that spools (inside its attempt, so a failure is its error).
      let serializer: Promise<SpoolSerializer> | undefined;
      const kafkaSpool = async (namespace: string, entities: number) =>
        spoolOf(ctx, catalogOf(ctx, namespace, entities), undefined, await (serializer ??= mcpSpoolSerializer(proposalsTopic)));
      /** The steady phase's production at --kafka-rate, the warm-up's too; `before`: the entities searchable before it. */
      const produceAtRate = (feed: Awaited<ReturnType<typeof kafkaSpool>>, before: number) =>
        runKafkaProduce(client, feed, { ...proposalsTopic, rate: options.kafkaRate, maxSeconds: options.maxIngestSeconds, expectSearchable: (n) => before + n });
      // Otherwise the steady phase is the services' first work, measured while V8 still compiles
      // their code: their helper threads 0.15 to 0.18 of a core, and the lag p99 4.5 s against 3.5
      // on the same services warm (docs/performance-log.md, the thirty-fifth session).
      if (!has('ingest') && !has('batch') && !has('snapshots')) {
        await attempt(ctx, report, 'kafka services warmup', async () => {
          const feed = await kafkaSpool(NAMESPACES.kafkaServicesWarmup, options.kafkaEntities);
          const warmup = await produceAtRate(feed, searchable).finally(() => feed.close());
          report.kafkaServicesWarmup = { proposals: warmup.proposals, seconds: warmup.seconds };
          searchable += feed.entities;
        });
      }
      await attempt(ctx, report, 'kafka', async () => {
        const feed = await kafkaSpool(NAMESPACES.kafka, options.kafkaEntities);
        const before = searchable;
        const produce = () => produceAtRate(feed, before);
        const { result, usPerUnit, generatorUsPerUnit, cores, backendCores, elasticByIndex } = await withCpu(deployment, produce, (r) => r.proposals).finally(() => feed.close());
        report.kafka = { ...result, serverCpuUsPerProposal: usPerUnit, generatorCpuUsPerProposal: generatorUsPerUnit, serverCoresByThread: cores, backendCores, elasticByIndex };
        searchable += feed.entities;
      });
      await attempt(ctx, report, 'kafka burst', async () => {
        const feed = await kafkaSpool(NAMESPACES.kafkaBurst, options.kafkaBurstEntities);
        const before = searchable;
        const burst = () => runKafkaBurst(client, feed, { ...proposalsTopic, maxSeconds: options.maxIngestSeconds, expectSearchable: (n) => before + n });
        const { result, usPerUnit, generatorUsPerUnit, cores, backendCores, elasticByIndex } = await withCpu(deployment, burst, (r) => r.proposals).finally(() => feed.close());
        report.kafkaBurst = { ...result, serverCpuUsPerProposal: usPerUnit, generatorCpuUsPerProposal: generatorUsPerUnit, serverCoresByThread: cores, backendCores, elasticByIndex };
        searchable += feed.entities;
      });
    }
    if (has('restore')) {
      await attempt(ctx, report, 'restore', async () => {
        const { result, usPerUnit, cores, backendCores, elasticByIndex } = await withCpu(deployment, () => runRestore(client, deployment, searchable, options.maxIngestSeconds * 1000), (r) => r.aspects);
        report.restore = { ...result, serverCpuUsPerAspect: usPerUnit, serverCoresByThread: cores, backendCores, elasticByIndex };
      });
    }
    await attempt(ctx, report, 'restart', async () => {
      const restartMs = await deployment.restart();
      report.footprint = { ...report.footprint, restartToHealthyMs: round(restartMs, 0)!, rssAfterRestartMb: round(deployment.memory().rssMb, 0)! };
    });
  } finally {
    client.close();
    await deployment.stop();
  }

  if (has('overload')) {
    await attempt(ctx, report, 'overload', async () => {
      const fresh = await deploy(ctx, mode, backends, 'overload');
      const overloadClient = new CatalogClient(fresh, options.overloadClients + 4, 60_000);
      try {
        report.overload = await runOverload(fresh, overloadClient, catalogOf(ctx, NAMESPACES.overload, options.entities * 10, false), {
          clients: options.overloadClients,
          seconds: options.overloadSeconds,
          drainTimeoutMs: options.maxIngestSeconds * 1000,
        });
      } finally {
        overloadClient.close();
        await fresh.stop();
      }
    });
  }

  if (has('raw')) {
    const rows = report.ingest?.proposals ?? catalog.shape.total * 6;
    const raw: NonNullable<ModeReport['raw']> = {};
    report.raw = raw;
    if (mode === 'embedded') {
      await attempt(ctx, report, 'raw sqlite', async () => {
        raw.sqlite = await rawSqlite(catalog, rows, RAW_SECONDS);
      });
    } else {
      const database = prefixOf(ctx, 'raw');
      await attempt(ctx, report, 'raw mongo', async () => {
        raw.mongoBulk = await rawMongo(backends.mongodb, database, catalog, rows, RAW_SECONDS);
        raw.mongoSingle = await rawMongo(backends.mongodb, database, catalog, rows, RAW_SECONDS, { clients: options.clients });
      });
      await attempt(ctx, report, 'raw elasticsearch', async () => {
        raw.elasticBulk = await rawElastic(backends.elasticsearch, `${database}_aspects`, catalog, rows, RAW_SECONDS);
      });
    }
    const ratios: Record<string, number> = {};
    const ingestRate = report.ingest?.proposalsPerSecond;
    if (ingestRate && raw.sqlite) ratios['ingestProposal / raw SQLite upserts'] = round(ingestRate / raw.sqlite.rowsPerSecond, 3)!;
    if (ingestRate && raw.mongoBulk) ratios['ingestProposal / raw MongoDB bulk upserts'] = round(ingestRate / raw.mongoBulk.rowsPerSecond, 3)!;
    if (ingestRate && raw.mongoSingle) ratios['ingestProposal / raw MongoDB single upserts'] = round(ingestRate / raw.mongoSingle.rowsPerSecond, 3)!;
    const burstRate = report.kafkaBurst?.persistedPerSecond;
    if (burstRate && raw.mongoBulk) ratios['Kafka burst persisted / raw MongoDB bulk upserts'] = round(burstRate / raw.mongoBulk.rowsPerSecond, 3)!;
    if (report.restore && raw.elasticBulk) ratios['rebuild / raw Elasticsearch bulk'] = round(report.restore.aspectsPerSecond / raw.elasticBulk.rowsPerSecond, 3)!;
    report.ratios = { ...report.ratios, ...ratios };
  }

  if (options.profile) {
    const dir = join(ctx.workDir, 'profiles', `${mode}-main`);
    report.profiles = profilesOf(dir);
  }
  return report;
}

/**
 * V8 keeps the heap it grew under a load until its memory reducer notices the load has stopped
 * (10 to 20 s here), then returns it: RSS at the load's end is mostly the load's garbage. This reads
 * RSS each second until it has not fallen for SETTLE_QUIET_S seconds after falling, or SETTLE_MAX_S.
 */
const SETTLE_MAX_S = 40;
const SETTLE_QUIET_S = 5;

async function settledMemory(deployment: Deployment): Promise<{ rssMb: number; seconds: number }> {
  let lowest = deployment.memory().rssMb;
  let fell = false;
  let quiet = 0;
  for (let s = 1; s <= SETTLE_MAX_S; s++) {
    await sleep(1000);
    const rss = deployment.memory().rssMb;
    if (rss < lowest - 2) {
      lowest = rss;
      fell = true;
      quiet = 0;
    } else if (fell && ++quiet >= SETTLE_QUIET_S) return { rssMb: lowest, seconds: s };
  }
  return { rssMb: Math.min(lowest, deployment.memory().rssMb), seconds: SETTLE_MAX_S };
}
