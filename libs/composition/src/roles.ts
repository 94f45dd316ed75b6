/**
 * The roles a process can play, each a consumer group or the API. The embedded service plays
 * them all; each distributed service plays one.
 */
import type { Registry } from '@cairn/core';
import type { Metrics } from '@cairn/observability';
import type { Consumer, ConsumerProgress, EventLog } from '@cairn/ports';
import { Persister, SearchProjector, TimeseriesProjector, type ProposalSettler } from '@cairn/pipeline';
import { PERSISTER_GROUP, SEARCH_GROUP, TIMESERIES_GROUP, type ApiPorts, type CatalogPorts } from './ports';

/**
 * Index writes cost mostly per batch (a commit rewrites every page the batch touched; a bulk
 * request), so the indexers let a small batch wait this long for more. On the embedded engine at
 * 10k entities, 200 ms rather than 50 took ingest from 1,260 to about 1,400 proposals/s, for an
 * index lag p99 of about 580 ms instead of 270 (the target is 1 s).
 */
const INDEX_LINGER_MS = 200;
/**
 * A backlog (a rebuild, a restart behind) goes through in batches this large: on the embedded
 * engine a rebuild ran 2,700 aspects/s in batches of 500 and 3,700/s in batches of 2,000, since a
 * commit writes each touched page once however many rows changed it. Larger batches gained little
 * more and hold the one thread longer.
 */
const INDEX_MAX_BATCH = 2000;

export interface IndexBatching {
  readonly lingerMs: number;
  readonly maxBatch: number;
}

const INDEX_BATCHING: IndexBatching = { lingerMs: INDEX_LINGER_MS, maxBatch: INDEX_MAX_BATCH };

/**
 * The embedded search index writes on a thread of its own, so a batch's commit costs the serving
 * thread nothing, but each batch still costs both threads something of its own (FTS5 writes a
 * segment per commit and merges them; the serving thread projects, sends and commits positions per
 * batch): at 10k entities on a 2-core machine, 150 ms rather than 10 took the ingest from 1,452 to
 * 1,664 proposals/s (CPU a proposal 913 → 779 µs, the search writer 0.28 → 0.22 of a core) for an
 * index lag p99 of 440 ms instead of 195; 300 ms gained a few percent more for a p99 of 740 ms,
 * too near the second Elasticsearch takes to make a write searchable. A backlog (a rebuild) goes in
 * larger batches, each touching a B-tree page once for more rows. Half of what a rebuild has in
 * the log at a time under the default bound (three quarters of 20,000), so the indexer projects one
 * batch while the one before commits; at 100k entities a commit rewrites pages all over the value
 * and term B-trees, so halving the batch (3,750 under a bound of 10,000) cost what the overlap gained.
 */
export const EMBEDDED_SEARCH_BATCHING: IndexBatching = { lingerMs: 150, maxBatch: 7_500 };

export function startPersister(ports: CatalogPorts, registry: Registry, settler: ProposalSettler, metrics: Metrics): Consumer {
  const logs = { ...ports.logs, failedProposals: countingAppends(ports.logs.failedProposals, (n) => metrics.proposalsFailed.inc(n)) };
  const persister = new Persister(registry, ports.store, logs, settler);
  metrics.trackLag(PERSISTER_GROUP, () => ports.logs.proposals.lag(PERSISTER_GROUP));
  // Where the log can, a batch is applied inside the transaction that appended it (ConsumeOptions.inline).
  return ports.logs.proposals.consume(
    PERSISTER_GROUP,
    async (batch, delivery) => {
      const end = metrics.applyDuration.startTimer();
      const { durable } = await persister.takeBatch(batch, delivery);
      return {
        durable: durable.then(() => {
          end();
          metrics.proposalsApplied.inc({ outcome: 'settled' }, batch.length);
        }),
      };
    },
    { inline: true },
  );
}

export function startSearchIndexer(
  ports: CatalogPorts,
  registry: Registry,
  metrics: Metrics,
  batching: IndexBatching = INDEX_BATCHING,
): Consumer {
  const projector = new SearchProjector(registry, ports.search, ports.graph, ports.systemMetadata);
  metrics.trackLag(SEARCH_GROUP, () => ports.logs.versionedChangeLog.lag(SEARCH_GROUP));
  return ports.logs.versionedChangeLog.consume(
    SEARCH_GROUP,
    // The next batch is projected while this one's search writes commit.
    async (batch) => {
      const { durable } = await projector.takeBatch(batch);
      return { durable: durable.then(() => void metrics.changeLogsProjected.inc({ projector: 'search' }, batch.length)) };
    },
    batching,
  );
}

export function startTimeseriesIndexer(ports: CatalogPorts, registry: Registry, metrics: Metrics): Consumer {
  const projector = new TimeseriesProjector(registry, ports.timeseries);
  metrics.trackLag(TIMESERIES_GROUP, () => ports.logs.timeseriesChangeLog.lag(TIMESERIES_GROUP));
  return ports.logs.timeseriesChangeLog.consume(
    TIMESERIES_GROUP,
    async (batch) => {
      await projector.handleBatch(batch);
      metrics.changeLogsProjected.inc({ projector: 'timeseries' }, batch.length);
    },
    INDEX_BATCHING,
  );
}

/** `log`, calling `count` with how many records each append added. */
function countingAppends<T>(log: EventLog<T>, count: (records: number) => void): EventLog<T> {
  return {
    topic: log.topic,
    append: async (records) => {
      const ids = await log.append(records);
      count(ids.length);
      return ids;
    },
    consume: (group, handler, options) => log.consume(group, handler, options),
    lag: (group) => log.lag(group),
    progress: (group) => log.progress(group),
  };
}

/** Every consumer group's progress, for backpressure. */
export async function consumerProgress(ports: Pick<ApiPorts, 'logs'>): Promise<Record<string, ConsumerProgress>> {
  const [persister, search, timeseries] = await Promise.all([
    ports.logs.proposals.progress(PERSISTER_GROUP),
    ports.logs.versionedChangeLog.progress(SEARCH_GROUP),
    ports.logs.timeseriesChangeLog.progress(TIMESERIES_GROUP),
  ]);
  return { [PERSISTER_GROUP]: persister, [SEARCH_GROUP]: search, [TIMESERIES_GROUP]: timeseries };
}

/** Runs every probe with a deadline; a backend that does not answer is unhealthy. */
export async function probeHealth(probes: ApiPorts['probes'], timeoutMs = 3000) {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      try {
        await Promise.race([probe(), new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs).unref())]);
        return [name, { healthy: true }] as const;
      } catch (err) {
        return [name, { healthy: false, detail: (err as Error).message }] as const;
      }
    }),
  );
  const components = Object.fromEntries(entries);
  return { healthy: entries.every(([, c]) => c.healthy), components };
}
