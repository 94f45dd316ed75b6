/** Small helpers shared by the routes: actions, parameters, URNs and the actor of a request. */
import type { NextFunction, Request, Response } from 'express';
import { readableStore, type RequestAuth } from '@cairn/auth';
import { badRequest, RestliError, UrnSyntaxError, type EntitySpec, type Registry, type Urn } from '@cairn/core';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import type { AspectReader } from '@cairn/ports';
import type { CatalogContext } from './context';

export type Handler = (req: Request, res: Response) => Promise<void>;
export type ActionTable = Record<string, (req: Request, res: Response) => Promise<unknown>>;

/** Wraps an async handler so its errors reach the error middleware. */
export function route(handler: Handler) {
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };
}

/** `POST /<resource>?action=<name>`: a non-void action answers `{value}`, a void one an empty 200. */
export function actions(resource: string, table: ActionTable) {
  return route(async (req, res) => {
    const action = req.query.action;
    if (typeof action !== 'string' || !action) throw badRequest(`POST /${resource} needs an ?action= parameter`);
    const run = Object.prototype.hasOwnProperty.call(table, action) ? table[action] : undefined;
    if (!run) throw new RestliError(400, `Unknown action '${action}' on resource '${resource}'. Known actions: ${Object.keys(table).join(', ')}`);
    const value = await run(req, res);
    if (value === undefined) res.status(200).end();
    else res.json({ value });
  });
}

export function body(req: Request): Record<string, unknown> {
  return actionParams(req.body);
}

/** A parsed request body as an action's parameters. */
export function actionParams(b: unknown): Record<string, unknown> {
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('The request body must be a JSON object of action parameters');
  return b as Record<string, unknown>;
}

export function requireString(params: Record<string, unknown>, name: string): string {
  const v = params[name];
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`Parameter '${name}' is required and must be a string`);
  return v;
}

export function optionalString(params: Record<string, unknown>, name: string): string | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`Parameter '${name}' must be a string`);
  return v;
}

export function optionalInt(params: Record<string, unknown>, name: string): number | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw badRequest(`Parameter '${name}' must be an integer`);
  return n;
}

export function entityUrn(registry: Registry, raw: unknown): { urn: Urn; entity: EntitySpec } {
  if (typeof raw !== 'string' || !raw) throw badRequest('A urn is required');
  try {
    return registry.parseEntityUrn(raw);
  } catch (err) {
    if (err instanceof UrnSyntaxError) throw badRequest(err.message);
    throw err;
  }
}

/**
 * The store as the request's actor may read it: secret aspects (privileges.yaml `reads`) it lacks
 * the privilege for are absent. Every route that answers with stored values reads through this.
 */
export function readerOf(ctx: CatalogContext, res: Response): AspectReader {
  const auth = res.locals.auth as RequestAuth | undefined;
  return auth ? readableStore(ctx.store, auth) : ctx.store;
}

/** The actor on whose behalf the request acts (set by authentication when it is enabled). */
export function actorOf(res: Response): string {
  return (res.locals.actor as string | undefined) ?? SYSTEM_ACTOR;
}
