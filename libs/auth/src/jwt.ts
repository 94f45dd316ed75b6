/** HS256 JSON Web Tokens (RFC 7519) with node:crypto, as the reference signs them (key = the UTF-8 bytes of the signing key). */
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from './secrets';

export type JwtClaims = Record<string, unknown> & { readonly exp?: number };

export class TokenError extends Error {}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');

function signature(signingInput: string, key: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(signingInput).digest('base64url');
}

export function signJwt(claims: JwtClaims, key: string): string {
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${input}.${signature(input, key)}`;
}

function decodeJson(part: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new TokenError(`Malformed token ${what}`);
}

/** The claims of a token signed with `key` that has not expired at `nowMs`; a TokenError otherwise. */
export function verifyJwt(token: string, key: string, nowMs = Date.now()): JwtClaims {
  const parts = token.split('.');
  if (parts.length !== 3) throw new TokenError('Malformed token: not a JWT');
  const [header, payload, sig] = parts;
  // Only HS256 is accepted, whatever the header says, so "alg: none" or key confusion cannot slip through.
  if (decodeJson(header, 'header').alg !== 'HS256') throw new TokenError('Unsupported token algorithm');
  if (!constantTimeEqual(sig, signature(`${header}.${payload}`, key))) throw new TokenError('Invalid token signature');
  const claims = decodeJson(payload, 'payload') as JwtClaims;
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs)) throw new TokenError('Token expired');
  return claims;
}
