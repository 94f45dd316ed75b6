/** What every service process shares: environment parsing, a health/metrics endpoint, and shutdown on signals. */
import express from 'express';
import { collectGarbageWhenIdle, createLogger } from '@cairn/core';
import { httpMetricsMiddleware, metricsHandler, type Metrics } from '@cairn/observability';
import type { Env } from './distributed-ports';

export function intFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

/** A consumer service's own small HTTP face: `/health` (its backends) and `/metrics`. */
export function workerApp(metrics: Metrics, health: () => Promise<{ healthy: boolean }>): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(httpMetricsMiddleware(metrics));
  app.get('/metrics', metricsHandler(metrics));
  app.get('/health', (_req, res, next) => {
    health().then((report) => res.status(report.healthy ? 200 : 503).json(report), next);
  });
  return app;
}

/**
 * Starts a service and stops it cleanly on SIGINT/SIGTERM; a failed start exits non-zero. Its main
 * thread gives a burst's garbage back once idle (before the start, so its worker threads can too).
 */
export function runService(name: string, start: () => Promise<{ close(): Promise<void> }>): void {
  const log = createLogger(name);
  collectGarbageWhenIdle({
    collected: (before, after, ms) => log.info('gave idle heap back', { committedMb: Math.round(before / 2 ** 20), afterMb: Math.round(after / 2 ** 20), ms: Math.round(ms) }),
  });
  start().then(
    (running) => {
      let closing = false;
      const shutdown = (signal: string) => {
        if (closing) return;
        closing = true;
        log.info('shutting down', { signal });
        running.close().then(
          () => process.exit(0),
          (err) => {
            log.error('shutdown failed', { error: String(err) });
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
    },
    (err) => {
      log.error('failed to start', { error: String((err as Error)?.stack ?? err) });
      process.exit(1);
    },
  );
}
