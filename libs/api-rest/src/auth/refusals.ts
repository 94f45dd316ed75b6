/** 401, 403 and 429 answers in the shape the caller expects: GraphQL errors on GraphQL paths, Rest.li errors elsewhere. */
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Refusal } from './request-authentication';

type RefusalStatus = 401 | 403 | 429;

/** The headers every refusal carries, whichever its shape. */
export function refusalHeaders(refusal: { status: RefusalStatus; retryAfterSeconds?: number }): Record<string, string> {
  return {
    ...(refusal.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="cairn"' } : {}),
    ...(refusal.retryAfterSeconds !== undefined ? { 'Retry-After': String(refusal.retryAfterSeconds) } : {}),
  };
}

/** A refusal in the Rest.li error shape: its headers beside `refusalHeaders`, and its body. */
export function restliRefusal(status: RefusalStatus, message: string): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'X-RestLi-Error-Response': 'true' },
    body: JSON.stringify({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', message, status }),
  };
}

export function refuse(req: Request, res: Response, refusal: Refusal | { status: 403; message: string }, graphqlPaths: readonly string[]): void {
  const { status, message } = refusal;
  res.set(refusalHeaders(refusal));
  if (graphqlPaths.includes(req.path)) {
    const code = status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'RATE_LIMITED';
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
    return;
  }
  const restli = restliRefusal(status, message);
  res.status(status).set(restli.headers).type('json').send(restli.body);
}

/** The client address the failure limits count against. */
export const clientAddress = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';
