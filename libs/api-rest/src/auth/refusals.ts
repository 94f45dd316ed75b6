/** 401, 403 and 429 answers in the shape the caller expects: GraphQL errors on GraphQL paths, Rest.li errors elsewhere. */
import type { Request, Response } from 'express';

export function refuse(req: Request, res: Response, status: 401 | 403 | 429, message: string, graphqlPaths: readonly string[]): void {
  if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="cairn"');
  if (graphqlPaths.includes(req.path)) {
    const code = status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : 'RATE_LIMITED';
    res.status(status).json({ errors: [{ message, extensions: { code } }] });
    return;
  }
  res
    .status(status)
    .set('X-RestLi-Error-Response', 'true')
    .json({ exceptionClass: 'com.linkedin.restli.server.RestLiServiceException', message, status });
}

/** The client address the failure limits count against. */
export const clientAddress = (req: Request) => req.socket.remoteAddress ?? 'unknown';
