/** 401, 403 and 429 answers in the shape the caller expects: GraphQL errors on GraphQL paths, Rest.li errors elsewhere. */
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Refusal } from './request-authentication';

type RefusalStatus = 401 | 403 | 429;

/** The headers every refusal carries, whichever its shape. */
function refusalHeaders(refusal: { status: RefusalStatus; retryAfterSeconds?: number }): Record<string, string> {
  return {
    ...(refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="cairn"' } : {}),
    ...(refusal.retryAfterSeconds !== undefined ? { 'Retry-After': String(refusal.retryAfterSeconds) } : {}),
  };
}

/** A refusal in the Rest.li error shape: every header it carries, and its body. */
export function restliRefusal(refusal: { status: RefusalStatus; message: string; retryAfterSeconds?: number }): { headers: Record<string, string>; body: string } {
  const { status, message } = refusal;
  return {
    headers: { ...refusalHeaders(refusal), 'X-RestLi-Error-Response': 'true' },
    body: JSON.stringify({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', message, status }),
  };
}

export function refuse(req: Request, res: Response, refusal: Refusal | { status: 403; message: string }, graphqlPaths: readonly string[]): void {
  const { status, message } = refusal;
  if (graphqlPaths.includes(req.path)) {
    const code = status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'RATE_LIMITED';
    res.status(status).set(refusalHeaders(refusal)).json({ errors: [{ message, extensions: { code } }] });
    return;
  }
  const restli = restliRefusal(refusal);
  res.status(status).set(restli.headers).type('json').send(restli.body);
}

/** The client address the failure limits count against. */
export const clientAddress = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';
