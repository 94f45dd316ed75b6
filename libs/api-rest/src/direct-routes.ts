/**
 * The two requests clients send most, answered in Node's HTTP server without express's
 * per-request work: `POST /aspects?action=ingestProposal` (every producer's write) and
 * `GET /entitiesV2/<urn>` (every SDK's read). Routing, request and response objects and the body
 * middleware cost about 100 µs of CPU a request on a small machine, and the objects they leave
 * outlive young-generation collections, so the old generation fills and its collections stall the
 * thread (docs/performance-log.md). The answers are the express routes': the same actions, headers and
 * error answer. With authentication on, each request is authenticated by the instance express's
 * middleware asks (the same refusals and rate limits), acts as its actor and is authorized as the
 * route table says. Only requests express would handle no differently come this way: a request with
 * an `Origin` (CORS), a body without a declared length or over the limit, a compressed or non-UTF-8
 * body, or any other path goes to express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readableStore, type RequestAuth } from '@cairn/auth';
import { badRequest } from '@cairn/core';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import { errorAnswer, RESTLI_PROTOCOL_HEADER, RESTLI_PROTOCOL_VERSION } from './app';
import { requireRouteAccess, urnsOf } from './auth/authorize-route';
import { clientAddress, restliRefusal } from './auth/refusals';
import type { RequestAuthentication } from './auth/request-authentication';
import type { CatalogContext } from './context';
import { actionParams, entityUrn } from './http';
import { ingestProposal } from './routes/aspects';
import { readEntity, wantedAspects } from './routes/entities-v2';

const INGEST_URL = '/aspects?action=ingestProposal';
const ENTITY_PATH = /^\/entitiesV2\/([^/?]+)(?:\?.*)?$/;
/** The express routes' paths, for the request metrics' label. */
const DIRECT_ROUTES = { ingest: { method: 'POST', route: '/aspects' }, entity: { method: 'GET', route: '/entitiesV2/:urn' } } as const;

/** Starts timing a request of a route; the function it returns records the request's answer. */
export type RequestTimer = (method: string, route: string) => (status: number) => void;

/** Answers the request and returns true, or returns false (untouched) for express to handle. */
export type DirectHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const JSON_TYPE = 'application/json; charset=utf-8';

type Answer = (status: number, body: string, headers?: Record<string, string>) => void;

/** Writes a JSON answer with the Rest.li headers every route's answer has, and records its status. */
export function answerer(res: ServerResponse, recorded: ((status: number) => void) | undefined): Answer {
  return (status, body, headers = {}) => {
    res.writeHead(status, {
      [RESTLI_PROTOCOL_HEADER]: RESTLI_PROTOCOL_VERSION,
      ...headers,
      'Content-Type': JSON_TYPE,
      'Content-Length': String(Buffer.byteLength(body)),
    });
    res.end(body);
    recorded?.(status);
  };
}

/** Answers an error in the Rest.li error shape, as express's error handler does. */
export function failer(answer: Answer, exposeStackTraces: boolean) {
  return (err: unknown) => {
    const e = errorAnswer(err, exposeStackTraces);
    answer(e.status, JSON.stringify(e.body), e.headers);
  };
}

function isDirectIngest(req: IncomingMessage, maxBodyBytes: number): boolean {
  if (req.method !== 'POST' || req.url !== INGEST_URL) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) return false;
  const length = req.headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) && Number(length) <= maxBodyBytes;
}

/** Who a request acts as: the system while authentication is off, else its authenticated actor. */
interface Caller {
  readonly actor: string;
  /** The privilege checks of an actor that has any: none for the system, which may do everything. */
  readonly auth?: RequestAuth;
}

const UNAUTHENTICATED: Caller = { actor: SYSTEM_ACTOR };

const pathOf = (url: string) => url.split('?', 1)[0]!;

/** Calls `then` with the request's caller, or answers its refusal (before its body is read, as express does). */
function asCaller(authentication: RequestAuthentication | undefined, req: IncomingMessage, answer: Answer, fail: (err: unknown) => void, then: (caller: Caller) => void): void {
  if (authentication === undefined) return then(UNAUTHENTICATED);
  authentication.authenticate({ method: req.method!, path: pathOf(req.url!), headers: req.headers, address: clientAddress(req) }).then((outcome) => {
    if ('actor' in outcome) return then(outcome.actor.system ? { actor: outcome.actor.urn } : { actor: outcome.actor.urn, auth: outcome.auth });
    const restli = restliRefusal(outcome.refusal);
    answer(outcome.refusal.status, restli.body, restli.headers);
  }, fail);
}

function ingest(ctx: CatalogContext, req: IncomingMessage, answer: Answer, fail: (err: unknown) => void, caller: Caller): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  // A client that went away mid-body is not a server failure (express's body parser answers it 400 too).
  req.on('error', (err) => fail(badRequest(`Request body not received: ${err.message}`)));
  req.on('end', () => {
    let parsed: unknown;
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      // As express's JSON parser: an empty body is no parameters.
      parsed = text.length === 0 ? {} : JSON.parse(text);
    } catch (err) {
      return fail({ type: 'entity.parse.failed', message: (err as Error).message });
    }
    let params: Record<string, unknown>;
    try {
      params = actionParams(parsed);
    } catch (err) {
      return fail(err);
    }
    ingestProposal(ctx, params, caller.actor).then((value) => answer(200, JSON.stringify({ value })), fail);
  });
}

/** The URN of a direct entity get, or undefined for express (a get with a body, which express parses, too). */
function directEntityUrn(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET' || req.headers['transfer-encoding'] !== undefined) return undefined;
  const length = req.headers['content-length'];
  if (length !== undefined && length !== '0') return undefined;
  const encoded = ENTITY_PATH.exec(req.url ?? '')?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

function getEntity(ctx: CatalogContext, raw: string, url: string, answer: Answer, fail: (err: unknown) => void, caller: Caller): void {
  const read = () => {
    const { urn, entity } = entityUrn(ctx.registry, raw);
    // A secret aspect the actor may not read answers as if absent, as express's route does.
    return readEntity(ctx, caller.auth ? readableStore(ctx.store, caller.auth) : ctx.store, urn, entity, wantedAspects(url, entity));
  };
  let reading: Promise<string>;
  if (caller.auth === undefined) {
    try {
      reading = read();
    } catch (err) {
      return fail(err);
    }
  } else {
    // As express's route-access check: the actor's privileges on the entity first, then the route's own 400s.
    reading = requireRouteAccess(caller.auth, 'GET', pathOf(url), undefined, (source, pathParam) => urnsOf(source, { originalUrl: url, body: undefined }, pathParam)).then(read);
  }
  reading.then((json) => answer(200, json), fail);
}

/**
 * The direct routes. `authentication`: undefined while authentication is off (every request acts
 * as the system), else the instance express's middleware asks.
 */
export function directRoutes(ctx: CatalogContext, timer?: RequestTimer, authentication?: RequestAuthentication): DirectHandler {
  const { maxBodyBytes, exposeStackTraces } = ctx.info;
  return (req, res) => {
    if (req.headers.origin !== undefined) return false;
    if (isDirectIngest(req, maxBodyBytes)) {
      const answer = answerer(res, timer?.(DIRECT_ROUTES.ingest.method, DIRECT_ROUTES.ingest.route));
      const fail = failer(answer, exposeStackTraces);
      asCaller(authentication, req, answer, fail, (caller) => ingest(ctx, req, answer, fail, caller));
      return true;
    }
    const urn = directEntityUrn(req);
    if (urn === undefined) return false;
    const answer = answerer(res, timer?.(DIRECT_ROUTES.entity.method, DIRECT_ROUTES.entity.route));
    const fail = failer(answer, exposeStackTraces);
    asCaller(authentication, req, answer, fail, (caller) => getEntity(ctx, urn, req.url!, answer, fail, caller));
    return true;
  };
}
