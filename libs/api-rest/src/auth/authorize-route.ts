/** Applies ROUTE_ACCESS to each REST request, once its body is parsed; 403 when the actor lacks the privileges. */
import type { NextFunction, Request, Response } from 'express';
import { forbidden, type RequestAuth } from '@cairn/auth';
import { queryList, queryParam } from '@cairn/core';
import { routeAccessOf, type UrnSource } from './route-access';
import { unprefixed } from './request-authentication';

/** The URNs a request names where `source` says; a malformed one is left to the route, which answers 400 without reading anything. */
export function urnsOf(source: UrnSource, req: Pick<Request, 'originalUrl' | 'body'>, pathParam: string | undefined): string[] {
  const raw = (() => {
    switch (source.from) {
      case 'path':
        return pathParam === undefined ? [] : [decodeURIComponent(pathParam)];
      case 'query':
        return source.list ? (queryList(req.originalUrl, source.name) ?? []) : [queryParam(req.originalUrl, source.name)];
      case 'body': {
        const v = (req.body as Record<string, unknown> | undefined)?.[source.name];
        return [typeof v === 'string' ? v : undefined];
      }
    }
  })();
  return raw.filter((u): u is string => typeof u === 'string' && /^urn:li:[^:]+:.+/.test(u));
}

const entityTypeOf = (urn: string) => urn.split(':')[2];

/**
 * Rejects with 403 unless the actor may call the route (`path` without the REST prefixes); `urnsOf`
 * names the entities the request acts on. A system actor may call every route.
 */
export async function requireRouteAccess(
  auth: RequestAuth,
  method: string,
  path: string,
  action: string | undefined,
  urnsOf: (source: UrnSource, pathParam: string | undefined) => string[],
): Promise<void> {
  if (auth.actor.system) return;
  // Express answers HEAD with the GET handler, so it is allowed as GET is.
  const found = routeAccessOf(method === 'HEAD' ? 'GET' : method, path, action);
  const what = `${method} ${path}${action ? `?action=${action}` : ''}`;
  if (!found) throw forbidden(`${what} has no authorization rule; only the system client may call it`);
  const { rule, pathParam } = found;
  const access = rule.access;
  switch (access.kind) {
    case 'public':
    case 'authenticated':
    case 'proposals':
      return;
    case 'platform':
    case 'someEntity':
      return auth.require(access.privileges, `call ${what}`);
    case 'entity':
      for (const urn of urnsOf(access.urn, pathParam)) await auth.require(access.privileges, `call ${what}`, { type: entityTypeOf(urn), urn });
  }
}

export function authorizeRoutes() {
  return (req: Request, res: Response, next: NextFunction) => {
    const auth = res.locals.auth as RequestAuth | undefined;
    if (!auth || auth.actor.system) return next();
    const action = typeof req.query.action === 'string' ? req.query.action : undefined;
    requireRouteAccess(auth, req.method, unprefixed(req.path), action, (source, pathParam) => urnsOf(source, req, pathParam)).then(() => next(), next);
  };
}

/** For routers outside the REST table (the schema registry): reads need an authenticated actor, writes these privileges. */
export function writesNeed(privileges: readonly string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const auth = res.locals.auth as RequestAuth | undefined;
    if (!auth || req.method === 'GET' || req.method === 'HEAD') return next();
    auth.require(privileges, `${req.method} ${req.baseUrl}${req.path}`).then(() => next(), next);
  };
}
