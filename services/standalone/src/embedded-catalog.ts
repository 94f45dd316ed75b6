/**
 * The whole pipeline in one process on the embedded engine: proposal log → persister → aspect
 * store + change logs → search/graph and time-series projectors, and the HTTP API over them.
 */
import { join } from 'node:path';
import type { Server } from 'node:http';
import { createLogger, defaultRegistry } from '@cairn/core';
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import {
  openDatabase,
  SqliteAspectStore,
  SqliteEventLog,
  SqliteGraphIndex,
  SqliteSearchIndex,
  SqliteTimeseriesIndex,
} from '@cairn/adapter-embedded';
import { Backpressure, DEFAULT_BACKPRESSURE, IngestService, Persister, SearchProjector, TimeseriesProjector, WriteNotifier, type PipelineLogs } from '@cairn/pipeline';
import { createRestApp, type CatalogContext } from '@cairn/api-rest';
import { createMetrics, httpMetricsMiddleware, metricsHandler } from '@cairn/observability';
import type { Consumer } from '@cairn/ports';
import type { StandaloneConfig } from './config';

export const PERSISTER_GROUP = 'mce-consumer';
export const SEARCH_GROUP = 'mae-consumer';
export const TIMESERIES_GROUP = 'timeseries-indexer';

export interface RunningCatalog {
  readonly server: Server;
  readonly port: number;
  readonly context: CatalogContext;
  readonly logs: PipelineLogs;
  close(): Promise<void>;
}

const SERVICE_VERSION = 'v0.10.4-cairn';

export async function startEmbeddedCatalog(config: StandaloneConfig): Promise<RunningCatalog> {
  const log = createLogger('standalone');
  const registry = defaultRegistry();
  const db = openDatabase(join(config.dataDir, 'catalog.db'), { sync: config.durability });
  const logs: PipelineLogs = {
    proposals: new SqliteEventLog<MetadataChangeProposal>(db, 'MetadataChangeProposal_v1'),
    failedProposals: new SqliteEventLog<FailedMetadataChangeProposal>(db, 'FailedMetadataChangeProposal_v1'),
    versionedChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Versioned_v1'),
    timeseriesChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Timeseries_v1'),
  };
  const store = new SqliteAspectStore(db);
  const search = new SqliteSearchIndex(db);
  const graph = new SqliteGraphIndex(db);
  const timeseries = new SqliteTimeseriesIndex(db);
  const notifier = new WriteNotifier();

  const persister = new Persister(registry, store, logs, notifier);
  const searchProjector = new SearchProjector(registry, search, graph);
  const timeseriesProjector = new TimeseriesProjector(registry, timeseries);
  const metrics = createMetrics('standalone');
  const consumers: Consumer[] = [
    logs.proposals.consume(PERSISTER_GROUP, async (batch) => {
      await persister.handleBatch(batch);
      metrics.proposalsApplied.inc({ outcome: 'settled' }, batch.length);
    }),
    logs.versionedChangeLog.consume(SEARCH_GROUP, async (batch) => {
      await searchProjector.handleBatch(batch);
      metrics.changeLogsProjected.inc({ projector: 'search' }, batch.length);
    }),
    logs.timeseriesChangeLog.consume(TIMESERIES_GROUP, async (batch) => {
      await timeseriesProjector.handleBatch(batch);
      metrics.changeLogsProjected.inc({ projector: 'timeseries' }, batch.length);
    }),
  ];
  metrics.trackLag(PERSISTER_GROUP, () => logs.proposals.lag(PERSISTER_GROUP));
  metrics.trackLag(SEARCH_GROUP, () => logs.versionedChangeLog.lag(SEARCH_GROUP));
  metrics.trackLag(TIMESERIES_GROUP, () => logs.timeseriesChangeLog.lag(TIMESERIES_GROUP));

  const maxLag = async () =>
    Math.max(
      await logs.proposals.lag(PERSISTER_GROUP),
      await logs.versionedChangeLog.lag(SEARCH_GROUP),
      await logs.timeseriesChangeLog.lag(TIMESERIES_GROUP),
    );
  const backpressure = new Backpressure(
    { ...DEFAULT_BACKPRESSURE, maxLag: config.maxIndexLag, maxPendingWrites: config.maxPendingWrites },
    maxLag,
    () => notifier.pending,
  );
  const context: CatalogContext = {
    registry,
    ingest: new IngestService(registry, logs, notifier, config.syncWriteTimeoutMs, backpressure),
    store,
    search,
    graph,
    timeseries,
    info: {
      version: SERVICE_VERSION,
      commit: 'unknown',
      serverType: 'standalone',
      asyncIngestDefault: config.asyncIngestDefault,
      maxBodyBytes: config.maxBodyBytes,
      exposeStackTraces: config.exposeStackTraces,
    },
    health: async () => {
      const lag = {
        persister: await logs.proposals.lag(PERSISTER_GROUP),
        search: await logs.versionedChangeLog.lag(SEARCH_GROUP),
        timeseries: await logs.timeseriesChangeLog.lag(TIMESERIES_GROUP),
      };
      return { healthy: db.open, components: { embedded: { healthy: db.open, detail: JSON.stringify({ lag }) } } };
    },
  };

  const app = createRestApp(context, (a) => {
    a.use(httpMetricsMiddleware(metrics));
    a.get('/metrics', metricsHandler(metrics));
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info('listening', { host: config.host, port, dataDir: config.dataDir });

  return {
    server,
    port,
    context,
    logs,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(consumers.map((c) => c.stop()));
      db.close();
    },
  };
}
