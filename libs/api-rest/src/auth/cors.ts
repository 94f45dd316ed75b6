/** CORS, off unless CORS_ALLOWED_ORIGINS lists origins (`*` = any origin, then without credentials). */
import type { NextFunction, Request, Response } from 'express';

const ALLOWED_HEADERS = 'Authorization, Content-Type, X-RestLi-Protocol-Version, X-RestLi-Method';

export function cors(origins: readonly string[]) {
  const any = origins.includes('*');
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (!origins.length || !origin || !(any || origins.includes(origin))) return next();
    res.vary('Origin');
    res.set('Access-Control-Allow-Origin', any ? '*' : origin);
    if (!any) res.set('Access-Control-Allow-Credentials', 'true');
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return next();
    res.set('Access-Control-Allow-Methods', 'GET, POST, DELETE');
    res.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.set('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
