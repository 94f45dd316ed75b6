/**
 * Authentication of every request express serves but the public ones: sets `res.locals.actor` (the
 * actor's URN, what the routes record as the author of writes) and `res.locals.auth` (the actor's
 * privilege checks). No or bad credentials get 401 before the body is read; too many requests 429.
 */
import type { NextFunction, Request, Response } from 'express';
import type { AuthServices } from '@cairn/auth';
import { clientAddress, refuse } from './refusals';
import { isPublic, type RequestAuthentication } from './request-authentication';

export function authenticateRequests(services: AuthServices, authentication: RequestAuthentication, graphqlPaths: readonly string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!authentication.enabled) {
      res.locals.auth = services.unrestricted;
      return next();
    }
    if (isPublic(req.method, req.path)) return next();
    authentication.authenticate({ method: req.method, path: req.path, headers: req.headers, address: clientAddress(req) }).then((outcome) => {
      if ('refusal' in outcome) return refuse(req, res, outcome.refusal, graphqlPaths);
      res.locals.actor = outcome.actor.urn;
      res.locals.auth = outcome.auth;
      next();
    }, next);
  };
}
