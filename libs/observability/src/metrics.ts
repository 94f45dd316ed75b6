/** Prometheus metrics shared by every service: HTTP, pipeline throughput, failures and consumer lag. */
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { NextFunction, Request, Response } from 'express';

export interface Metrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly proposalsIngested: Counter<'mode'>;
  readonly proposalsApplied: Counter<'outcome'>;
  readonly proposalsFailed: Counter;
  readonly applyDuration: Histogram;
  readonly changeLogsProjected: Counter<'projector'>;
  /** Sets how far each consumer group is behind, read when metrics are scraped. */
  trackLag(group: string, read: () => Promise<number>): void;
}

/** A registry's metrics as data, to be served together with another's (`metricsHandler`). */
export type MetricsData = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

export interface MetricsOptions {
  /** The process's own metrics (CPU, memory, event loop): off in a thread whose process reports them already. */
  readonly processMetrics?: boolean;
}

export function createMetrics(service: string, options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const lagReaders = new Map<string, () => Promise<number>>();
  new Gauge({
    name: 'cairn_consumer_lag_records',
    help: 'Records appended to a log but not yet processed by the consumer group',
    labelNames: ['group'],
    registers: [registry],
    // Where two threads of a process both read a group's lag, it is one lag, not their sum.
    aggregator: 'max',
    async collect() {
      for (const [group, read] of lagReaders) this.set({ group }, await read());
    },
  });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'cairn_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    proposalsIngested: new Counter({ name: 'cairn_proposals_ingested_total', help: 'Proposals accepted onto the log', labelNames: ['mode'], registers: [registry] }),
    proposalsApplied: new Counter({ name: 'cairn_proposals_applied_total', help: 'Proposals applied by the persister', labelNames: ['outcome'], registers: [registry] }),
    proposalsFailed: new Counter({ name: 'cairn_proposals_failed_total', help: 'Proposals sent to the failed-proposal topic', registers: [registry] }),
    applyDuration: new Histogram({
      name: 'cairn_proposal_apply_duration_seconds',
      help: 'Time to apply one proposal to the store and emit its change log',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers: [registry],
    }),
    changeLogsProjected: new Counter({ name: 'cairn_change_logs_projected_total', help: 'Change logs projected into the indexes', labelNames: ['projector'], registers: [registry] }),
    trackLag: (group, read) => void lagReaders.set(group, read),
  };
}

/** The route template, not the URL, so URNs in paths do not explode label cardinality. */
function routeLabel(req: Request): string {
  const route = (req.route as { path?: string } | undefined)?.path;
  return `${req.baseUrl}${typeof route === 'string' ? route : ''}` || 'unmatched';
}

export function httpMetricsMiddleware(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = metrics.httpDuration.startTimer({ method: req.method });
    res.on('finish', () => end({ route: routeLabel(req), status: String(res.statusCode) }));
    next();
  };
}

/** Times a request answered outside express (its route known in advance); call the result with its status. */
export function requestTimer(metrics: Metrics, method: string, route: string): (status: number) => void {
  const end = metrics.httpDuration.startTimer({ method });
  return (status) => end({ route, status: String(status) });
}

/** Serves the metrics of `metrics`, and of the process's other threads (`others`) merged in: counters summed. */
export function metricsHandler(metrics: Metrics, others?: () => Promise<MetricsData[]>) {
  return async (_req: Request, res: Response) => {
    if (!others) {
      res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
      return;
    }
    const merged = AggregatorRegistry.aggregate([await metrics.registry.getMetricsAsJSON(), ...(await others())]);
    res.set('Content-Type', merged.contentType).send(await merged.metrics());
  };
}
