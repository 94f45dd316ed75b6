/** The HTTP API process part shared by the embedded service and gms: config, context and app. */
import type { Server } from 'node:http';
import type { Express } from 'express';
import { createLogger, type Registry } from '@cairn/core';
import { authSettingsFromEnv, bootstrapAuth, type AuthSettings, type SecretSource } from '@cairn/auth';
import { admittingBodies, authenticateRequests, BodyAdmission, cors, createRestApp, directRoutes, RequestAuthentication, sessionRouter, type CatalogContext, type ServerInfo } from '@cairn/api-rest';
import { createGraphqlApi, EXPLORER_PATH, GRAPHQL_PATHS } from '@cairn/api-graphql';
import { httpMetricsMiddleware, metricsHandler, requestTimer, type Metrics, type MetricsData } from '@cairn/observability';
import { Backpressure, DEFAULT_BACKPRESSURE, IndexRestorer, IngestService, type ProposalAuthorizer, type WriteNotifier } from '@cairn/pipeline';
import type { Env } from './distributed-ports';
import { PERSISTER_GROUP, SEARCH_GROUP, TIMESERIES_GROUP, type ApiPorts } from './ports';
import { consumerProgress, probeHealth } from './roles';
import { closeServer, listen } from './http';
import { setUpAuth } from './auth-setup';
import { intFromEnv } from './service';

export const SERVICE_VERSION = 'v0.10.4-cairn';

/**
 * Request bodies held at once: hundreds of the largest batches producers send (a hundred proposals,
 * about 150 KB), and each byte takes several once parsed and checked.
 */
export const DEFAULT_MAX_INFLIGHT_BODY_BYTES = 32 * 1024 * 1024;

export interface ApiConfig {
  readonly port: number;
  readonly host: string;
  readonly maxBodyBytes: number;
  readonly asyncIngestDefault: boolean;
  readonly syncWriteTimeoutMs: number;
  readonly exposeStackTraces: boolean;
  readonly maxIndexLag: number;
  readonly maxBacklogSeconds: number;
  readonly maxPendingWrites: number;
  readonly maxInflightBodyBytes: number;
  readonly auth: AuthSettings;
}

/** `authEnabled`: whether authentication is on when METADATA_SERVICE_AUTH_ENABLED is not set. */
export function apiConfigFromEnv(env: Env, defaults: { authEnabled: boolean } = { authEnabled: false }): ApiConfig {
  return {
    port: intFromEnv(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    maxBodyBytes: intFromEnv(env, 'MAX_BODY_BYTES', 16 * 1024 * 1024),
    asyncIngestDefault: env.INGEST_ASYNC_DEFAULT === 'true',
    syncWriteTimeoutMs: intFromEnv(env, 'SYNC_WRITE_TIMEOUT_MS', 30_000),
    exposeStackTraces: env.EXPOSE_STACK_TRACES === 'true',
    maxIndexLag: intFromEnv(env, 'MAX_INDEX_LAG', DEFAULT_BACKPRESSURE.maxLag),
    maxBacklogSeconds: intFromEnv(env, 'MAX_BACKLOG_SECONDS', DEFAULT_BACKPRESSURE.maxBacklogSeconds),
    maxPendingWrites: intFromEnv(env, 'MAX_PENDING_WRITES', DEFAULT_BACKPRESSURE.maxPendingWrites),
    maxInflightBodyBytes: intFromEnv(env, 'MAX_INFLIGHT_BODY_BYTES', DEFAULT_MAX_INFLIGHT_BODY_BYTES),
    auth: authSettingsFromEnv(env, { enabled: defaults.authEnabled }),
  };
}

export interface RunningApi {
  readonly server: Server;
  readonly port: number;
  readonly context: CatalogContext;
  close(): Promise<void>;
}

/**
 * Serves REST, GraphQL and metrics over the ports. Writes are admitted by backpressure and wait
 * on `notifier`, which the persister (in this process or through the results log) settles.
 */
export async function startApi(
  ports: ApiPorts,
  registry: Registry,
  notifier: WriteNotifier,
  metrics: Metrics,
  config: ApiConfig,
  server: Pick<ServerInfo, 'serverType'> & {
    lagSampleMs?: number;
    secrets: SecretSource;
    /** The metrics of the process's other threads, served with this one's. */
    threadMetrics?: () => Promise<MetricsData[]>;
  },
  mountExtra?: (app: Express) => void,
): Promise<RunningApi> {
  for (const [group, log] of [
    [PERSISTER_GROUP, ports.logs.proposals],
    [SEARCH_GROUP, ports.logs.versionedChangeLog],
    [TIMESERIES_GROUP, ports.logs.timeseriesChangeLog],
  ] as const) {
    metrics.trackLag(group, () => log.lag(group));
  }
  const backpressure = new Backpressure(
    {
      ...DEFAULT_BACKPRESSURE,
      maxLag: config.maxIndexLag,
      maxBacklogSeconds: config.maxBacklogSeconds,
      maxPendingWrites: config.maxPendingWrites,
      sampleMs: server.lagSampleMs ?? DEFAULT_BACKPRESSURE.sampleMs,
    },
    () => consumerProgress(ports),
    () => notifier.pending,
  );
  // Every write of an authenticated actor passes the authorizer, whichever endpoint it came through.
  const authorize: ProposalAuthorizer | undefined = config.auth.enabled ? (actor, proposals) => auth.authorizer.authorizeProposals(actor, proposals) : undefined;
  const ingest = new IngestService(registry, ports.logs, notifier, config.syncWriteTimeoutMs, backpressure, authorize);
  const logger = createLogger(server.serverType);
  const auth = setUpAuth(config.auth, server.secrets, ports.store, ingest, logger);
  if (config.auth.enabled) await bootstrapAuth(auth, ports.store, ingest, logger);
  const context: CatalogContext = {
    registry,
    ingest,
    store: ports.store,
    search: ports.search,
    graph: ports.graph,
    timeseries: ports.timeseries,
    indexRestorer: new IndexRestorer(ports.restater, backpressure, SEARCH_GROUP),
    info: {
      version: SERVICE_VERSION,
      commit: process.env.GIT_COMMIT ?? 'unknown',
      serverType: server.serverType,
      asyncIngestDefault: config.asyncIngestDefault,
      maxBodyBytes: config.maxBodyBytes,
      exposeStackTraces: config.exposeStackTraces,
    },
    auth,
    health: () => probeHealth(ports.probes),
  };
  const graphql = await createGraphqlApi(context);
  // One instance for express and the direct routes, so each request counts once against the rate limits.
  const authentication = new RequestAuthentication(auth, { cookiePostPaths: GRAPHQL_PATHS, cookieGetPrefixes: [EXPLORER_PATH, '/restli/docs'] });
  const app = createRestApp(context, (a) => {
    a.use(cors(config.auth.corsOrigins));
    a.use(httpMetricsMiddleware(metrics));
    if (config.auth.enabled) a.use(sessionRouter(auth));
    a.use(authenticateRequests(auth, authentication, GRAPHQL_PATHS));
    a.get('/metrics', metricsHandler(metrics, server.threadMetrics));
    mountExtra?.(a);
    a.use(graphql.router);
  });
  const timer = (method: string, route: string) => requestTimer(metrics, method, route);
  // The requests clients send most skip express (direct-routes.ts).
  const direct = directRoutes(context, timer, config.auth.enabled ? authentication : undefined);
  const admission = new BodyAdmission({
    maxInflightBytes: config.maxInflightBodyBytes,
    unknownLengthBytes: config.maxBodyBytes,
    retryAfterSeconds: DEFAULT_BACKPRESSURE.retryAfterSeconds,
  });
  const { server: http, port } = await listen(app, config.port, config.host, admittingBodies(admission, direct, timer));
  return {
    server: http,
    port,
    context,
    close: async () => {
      await closeServer(http);
      await graphql.stop();
    },
  };
}
