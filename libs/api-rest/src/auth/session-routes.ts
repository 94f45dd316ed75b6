/**
 * Browser sessions: `POST /logIn {username, password}` checks a native user's password and sets an
 * HttpOnly cookie holding a session token (accepted by the GraphQL endpoints), plus the
 * reference's readable `actor` cookie; `POST /logOut` clears both.
 */
import express, { Router, type Request, type Response } from 'express';
import { ACTOR_COOKIE, RateLimiter, SESSION_COOKIE, type AuthServices } from '@cairn/auth';
import { clientAddress, refuse } from './refusals';

const LOGIN_BODY_LIMIT = '16kb';

interface CookieOptions {
  readonly maxAgeSeconds: number;
  readonly httpOnly: boolean;
  readonly secure: boolean;
}

function cookie(name: string, value: string, o: CookieOptions): string {
  return [`${name}=${encodeURIComponent(value)}`, 'Path=/', `Max-Age=${o.maxAgeSeconds}`, 'SameSite=Lax', ...(o.httpOnly ? ['HttpOnly'] : []), ...(o.secure ? ['Secure'] : [])].join('; ');
}

export function sessionRouter(services: AuthServices): Router {
  const { settings, accounts, tokens } = services;
  const attempts = new RateLimiter(settings.failedAuthPerMinute);
  const secure = (req: Request) => settings.cookieSecure === 'always' || (settings.cookieSecure === 'auto' && req.secure);
  const router = Router();
  const fail = (req: Request, res: Response, status: 401 | 429, message: string, retryAfterSeconds?: number) =>
    refuse(req, res, { status, message, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) }, []);

  router.post('/logIn', express.json({ limit: LOGIN_BODY_LIMIT, type: () => true }), async (req, res, next) => {
    try {
      const { username, password } = (req.body ?? {}) as { username?: unknown; password?: unknown };
      if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) return fail(req, res, 401, 'Invalid Credentials: give {username, password}');
      // Failures count per address and user, so guessing one user's password is slowed without locking the user out elsewhere.
      const key = `${clientAddress(req)}\n${username}`;
      const wait = attempts.peek(key);
      if (wait > 0) return fail(req, res, 429, 'Too many failed logins; retry later', wait);
      const urn = await accounts.checkPassword(username, password);
      if (!urn || (await accounts.identity(urn)).suspended) {
        attempts.take(key);
        return fail(req, res, 401, 'Invalid Credentials');
      }
      const maxAgeSeconds = Math.floor(settings.sessionTtlMs / 1000);
      res.append('Set-Cookie', cookie(SESSION_COOKIE, tokens!.createSession(urn), { maxAgeSeconds, httpOnly: true, secure: secure(req) }));
      res.append('Set-Cookie', cookie(ACTOR_COOKIE, urn, { maxAgeSeconds, httpOnly: false, secure: secure(req) }));
      res.status(200).json({ actor: urn });
    } catch (err) {
      next(err);
    }
  });

  router.post('/logOut', (req, res) => {
    for (const name of [SESSION_COOKIE, ACTOR_COOKIE]) res.append('Set-Cookie', cookie(name, '', { maxAgeSeconds: 0, httpOnly: name === SESSION_COOKIE, secure: secure(req) }));
    res.status(200).json({});
  });

  return router;
}
