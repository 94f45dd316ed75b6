/** The Rest.li-style HTTP API, served at the root and under `/api/gms`. */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { RestliError } from '@cairn/core';
import type { CatalogContext } from './context';
import { authorizeRoutes } from './auth';
import { aspectsRouter } from './routes/aspects';
import { entitiesRouter } from './routes/entities';
import { entitiesV2Router } from './routes/entities-v2';
import { metadataTestsRouter } from './routes/metadata-tests';
import { operationsRouter } from './routes/operations';
import { relationshipsRouter } from './routes/relationships';
import { usageStatsRouter } from './routes/usage-stats';
import { systemRouter } from './routes/system';
import { docsRouter } from './routes/docs';

export const GMS_PREFIX = '/api/gms';
export const RESTLI_PROTOCOL_HEADER = 'X-RestLi-Protocol-Version';
export const RESTLI_PROTOCOL_VERSION = '2.0.0';

function restliRoutes(ctx: CatalogContext): Router {
  const router = Router();
  router.use(systemRouter(ctx));
  router.use(docsRouter());
  router.use(aspectsRouter(ctx));
  router.use(entitiesRouter(ctx));
  router.use(entitiesV2Router(ctx));
  router.use(relationshipsRouter(ctx));
  router.use(operationsRouter(ctx));
  router.use(usageStatsRouter(ctx));
  router.use(metadataTestsRouter(ctx));
  return router;
}

/** Body-parser failures carry a `type`; map them to Rest.li errors with the right status. */
function toRestliError(err: unknown, exposeStack: boolean): { error: RestliError; stack?: string } {
  if (err instanceof RestliError) return { error: err };
  const e = err as { type?: string; status?: number; message?: string; stack?: string };
  if (e?.type === 'entity.too.large') return { error: new RestliError(413, `Request body is larger than the limit`) };
  if (e?.type === 'entity.parse.failed') return { error: new RestliError(400, `Malformed JSON in request body: ${e.message ?? ''}`) };
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return { error: new RestliError(415, e.message ?? 'Unsupported encoding') };
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return { error: new RestliError(e.status, e.message ?? 'Bad request') };
  return { error: new RestliError(500, 'Internal server error'), ...(exposeStack && e?.stack ? { stack: e.stack } : {}) };
}

export interface ErrorAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** How a failed request is answered, whichever HTTP path it came through; server errors are logged. */
export function errorAnswer(err: unknown, exposeStack: boolean): ErrorAnswer {
  const { error, stack } = toRestliError(err, exposeStack);
  const retryAfter = (err as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (error.status >= 500) process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'request failed', error: String((err as Error)?.stack ?? err) })}\n`);
  return {
    status: error.status,
    headers: { 'X-RestLi-Error-Response': 'true', ...(typeof retryAfter === 'number' ? { 'Retry-After': String(retryAfter) } : {}) },
    body: { ...error.toBody(), ...(stack ? { stackTrace: stack } : {}) },
  };
}

export function errorHandler(exposeStack: boolean) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const answer = errorAnswer(err, exposeStack);
    res.status(answer.status).set(answer.headers).json(answer.body);
  };
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction) {
  next(new RestliError(404, `No resource at ${req.method} ${req.path}`));
}

/** Mounts the REST API on an express app (which may also carry GraphQL and other routes). */
export function mountRestApi(app: express.Express, ctx: CatalogContext): void {
  app.use((_req, res, next) => {
    res.set(RESTLI_PROTOCOL_HEADER, RESTLI_PROTOCOL_VERSION);
    next();
  });
  app.use(express.json({ limit: ctx.info.maxBodyBytes, type: () => true, strict: false }));
  app.use(authorizeRoutes());
  const routes = restliRoutes(ctx);
  app.use(routes);
  app.use(GMS_PREFIX, routes);
  app.use('/gms', routes);
}

/** `before` mounts what must precede the REST routes (metrics, other APIs). */
export function createRestApp(ctx: CatalogContext, before?: (app: express.Express) => void): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // The reference sends no ETags, and hashing every response body costs each read its share.
  app.set('etag', false);
  before?.(app);
  mountRestApi(app, ctx);
  app.use(notFoundHandler);
  app.use(errorHandler(ctx.info.exposeStackTraces));
  return app;
}
