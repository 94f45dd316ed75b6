/**
 * Who sent a request, or why it is refused, whichever HTTP path it came through: express's
 * middleware (authenticate.ts) and the direct routes (direct-routes.ts) ask the same instance, so
 * the per-actor and failed-authentication rate limits count every request once.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { cookieValue, credentialsOf, RateLimiter, SESSION_COOKIE, type Actor, type AuthServices, type Credentials, type RequestAuth } from '@cairn/auth';
import { RestliError } from '@cairn/core';

export interface AuthenticationOptions {
  /** Where the session cookie is accepted for POSTs with a JSON body: the GraphQL endpoints. */
  readonly cookiePostPaths: readonly string[];
  /** Where the session cookie is accepted for GETs: pages a logged-in browser opens (explorer, docs). */
  readonly cookieGetPrefixes: readonly string[];
}

/** What authentication needs of a request. `path` is without the query string. */
export interface RequestCredentials {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The client's address, which failed authentications are counted against. */
  readonly address: string;
}

export interface Refusal {
  readonly status: 401 | 429;
  readonly message: string;
  readonly retryAfterSeconds?: number;
}

export type Authentication = { readonly actor: Actor; readonly auth: RequestAuth } | { readonly refusal: Refusal };

const PUBLIC_GETS = ['/health', '/config'];
const REST_PREFIXES = ['/api/gms', '/gms'];

/** The path without the prefixes the REST API is also served under. */
export function unprefixed(path: string): string {
  for (const p of REST_PREFIXES) if (path === p || path.startsWith(`${p}/`)) return path.slice(p.length) || '/';
  return path;
}

/** Whether the request needs no credentials (`path` without the query string). */
export function isPublic(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && PUBLIC_GETS.includes(unprefixed(path).replace(/\/+$/, '') || '/');
}

const isJson = (headers: IncomingHttpHeaders) => /^application\/json\b/i.test(headers['content-type'] ?? '');

export class RequestAuthentication {
  private readonly perActor: RateLimiter;
  private readonly failures: RateLimiter;

  constructor(
    private readonly services: AuthServices,
    private readonly options: AuthenticationOptions,
  ) {
    this.perActor = new RateLimiter(services.settings.rateLimitPerMinute);
    this.failures = new RateLimiter(services.settings.failedAuthPerMinute);
  }

  get enabled(): boolean {
    return this.services.settings.enabled;
  }

  /** Rejects only when the credentials could not be checked (the store failed): a server error, not a refusal. */
  async authenticate(req: RequestCredentials): Promise<Authentication> {
    const refused = (status: 401 | 429, message: string, retryAfterSeconds?: number) => ({ refusal: { status, message, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) } });
    const header = credentialsOf(req.headers.authorization);
    if (header === 'malformed') return refused(401, 'Invalid credentials: the Authorization header must be "Bearer <token>" or "Basic <clientId>:<secret>"');
    const credentials = header ?? this.fromCookie(req);
    if (!credentials) return refused(401, 'Authentication required: send "Authorization: Bearer <token>" (or log in at POST /logIn for a session)');
    // Only secrets that could be guessed are rate limited: a token's signature cannot be.
    const guessable = credentials.kind === 'basic';
    if (guessable && this.failures.peek(req.address) > 0) return refused(429, 'Too many failed authentications from this address; retry later', this.failures.peek(req.address));
    let actor: Actor;
    try {
      actor = await this.services.authenticator!.authenticate(credentials, header === undefined);
    } catch (err) {
      if (!(err instanceof RestliError) || err.status !== 401) throw err;
      if (guessable) this.failures.take(req.address);
      return refused(401, err.message);
    }
    if (!actor.system) {
      const wait = this.perActor.take(actor.urn);
      if (wait > 0) return refused(429, `Too many requests from ${actor.urn}; retry in ${wait} s`, wait);
    }
    return { actor, auth: this.services.forActor(actor) };
  }

  /** The session cookie only where a browser needs it; on JSON POSTs only, which another site cannot send without CORS approval. */
  private fromCookie(req: RequestCredentials): Credentials | undefined {
    const { cookiePostPaths, cookieGetPrefixes } = this.options;
    const cookieAllowed =
      (req.method === 'POST' && cookiePostPaths.includes(req.path) && isJson(req.headers)) ||
      (req.method === 'GET' && cookieGetPrefixes.some((p) => req.path === p || req.path.startsWith(`${p}/`)));
    const token = cookieAllowed ? cookieValue(req.headers.cookie, SESSION_COOKIE) : undefined;
    return token ? { kind: 'bearer', token } : undefined;
  }
}
