/**
 * Authentication of every request but the public ones: sets `res.locals.actor` (the actor's URN,
 * what the routes record as the author of writes) and `res.locals.auth` (the actor's privilege
 * checks). No or bad credentials get 401 before the body is read; too many requests 429.
 */
import type { NextFunction, Request, Response } from 'express';
import { cookieValue, credentialsOf, RateLimiter, SESSION_COOKIE, type AuthServices, type Credentials } from '@cairn/auth';
import { RestliError } from '@cairn/core';
import { clientAddress, refuse } from './refusals';

export interface AuthenticationOptions {
  /** Where the session cookie is accepted for POSTs with a JSON body: the GraphQL endpoints. */
  readonly cookiePostPaths: readonly string[];
  /** Where the session cookie is accepted for GETs: pages a logged-in browser opens (explorer, docs). */
  readonly cookieGetPrefixes: readonly string[];
}

const PUBLIC_GETS = ['/health', '/config'];
const REST_PREFIXES = ['/api/gms', '/gms'];

/** The path without the prefixes the REST API is also served under. */
export function unprefixed(path: string): string {
  for (const p of REST_PREFIXES) if (path === p || path.startsWith(`${p}/`)) return path.slice(p.length) || '/';
  return path;
}

const isJson = (req: Request) => /^application\/json\b/i.test(req.headers['content-type'] ?? '');

export function authenticateRequests(services: AuthServices, options: AuthenticationOptions) {
  const { settings, authenticator } = services;
  const perActor = new RateLimiter(settings.rateLimitPerMinute);
  const failures = new RateLimiter(settings.failedAuthPerMinute);

  /** The session cookie only where a browser needs it; on JSON POSTs only, which another site cannot send without CORS approval. */
  const fromCookie = (req: Request): Credentials | undefined => {
    const cookieAllowed = (req.method === 'POST' && options.cookiePostPaths.includes(req.path) && isJson(req)) || (req.method === 'GET' && options.cookieGetPrefixes.some((p) => req.path === p || req.path.startsWith(`${p}/`)));
    const token = cookieAllowed ? cookieValue(req.headers.cookie, SESSION_COOKIE) : undefined;
    return token ? { kind: 'bearer', token } : undefined;
  };

  return async (req: Request, res: Response, next: NextFunction) => {
    if (!settings.enabled) {
      res.locals.auth = services.unrestricted;
      return next();
    }
    const path = unprefixed(req.path);
    if ((req.method === 'GET' || req.method === 'HEAD') && PUBLIC_GETS.includes(path.replace(/\/+$/, '') || '/')) return next();
    const unauthenticated = (message: string) => refuse(req, res, 401, message, options.cookiePostPaths);
    const header = credentialsOf(req.headers.authorization);
    if (header === 'malformed') return unauthenticated('Invalid credentials: the Authorization header must be "Bearer <token>" or "Basic <clientId>:<secret>"');
    const credentials = header ?? fromCookie(req);
    if (!credentials) return unauthenticated('Authentication required: send "Authorization: Bearer <token>" (or log in at POST /logIn for a session)');
    // Only secrets that could be guessed are rate limited: a token's signature cannot be.
    const guessable = credentials.kind === 'basic';
    const address = clientAddress(req);
    if (guessable && failures.peek(address) > 0) {
      res.set('Retry-After', String(failures.peek(address)));
      return refuse(req, res, 429, 'Too many failed authentications from this address; retry later', options.cookiePostPaths);
    }
    try {
      const actor = await authenticator!.authenticate(credentials, header === undefined);
      if (!actor.system) {
        const wait = perActor.take(actor.urn);
        if (wait > 0) {
          res.set('Retry-After', String(wait));
          return refuse(req, res, 429, `Too many requests from ${actor.urn}; retry in ${wait} s`, options.cookiePostPaths);
        }
      }
      res.locals.actor = actor.urn;
      res.locals.auth = services.forActor(actor);
      next();
    } catch (err) {
      if (!(err instanceof RestliError) || err.status !== 401) return next(err);
      if (guessable) failures.take(address);
      unauthenticated(err.message);
    }
  };
}
