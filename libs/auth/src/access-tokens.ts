/**
 * The reference's token model: HS256 JWTs with claims actorType, actorId, type (PERSONAL or
 * SESSION), version ("2" for stored personal tokens), jti, sub, iss and exp. A personal token's
 * record is `urn:li:dataHubAccessToken:<id>`, the id being a salted hash of the token.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { TokenError, type JwtClaims } from './jwt';

export type TokenType = 'PERSONAL' | 'SESSION';
export const TOKEN_ISSUER = 'datahub-metadata-service';
export const ACCESS_TOKEN_ENTITY = 'dataHubAccessToken';
export const ACCESS_TOKEN_INFO = 'dataHubAccessTokenInfo';

const DAY = 24 * 3600 * 1000;
/** The GraphQL durations of createAccessToken; null = no expiry. */
export const TOKEN_DURATIONS: Readonly<Record<string, number | null>> = {
  ONE_HOUR: 3600 * 1000,
  ONE_DAY: DAY,
  ONE_WEEK: 7 * DAY,
  ONE_MONTH: 30 * DAY,
  THREE_MONTHS: 90 * DAY,
  SIX_MONTHS: 180 * DAY,
  ONE_YEAR: 365 * DAY,
  NO_EXPIRY: null,
};

export interface TokenClaims {
  readonly actorType: 'USER';
  readonly actorId: string;
  readonly type: TokenType;
  readonly version: '1' | '2';
  readonly jti: string;
  readonly sub: string;
  readonly iss: string;
  readonly exp?: number;
}

/** Stored (revocable) tokens are version 2; stateless session tokens version 1, as in the reference. */
export function newTokenClaims(type: TokenType, actorId: string, ttlMs: number | null, issuer: string, nowMs = Date.now()): TokenClaims {
  return {
    actorType: 'USER',
    actorId,
    type,
    version: type === 'PERSONAL' ? '2' : '1',
    jti: randomUUID(),
    sub: actorId,
    iss: issuer,
    ...(ttlMs === null ? {} : { exp: Math.floor((nowMs + ttlMs) / 1000) }),
  };
}

export function tokenClaimsOf(claims: JwtClaims, issuer: string): TokenClaims {
  const { actorType, actorId, type, version, iss } = claims;
  if (iss !== issuer) throw new TokenError('Token from another issuer');
  if (actorType !== 'USER' || typeof actorId !== 'string' || !actorId) throw new TokenError('Token names no user');
  if (type !== 'PERSONAL' && type !== 'SESSION') throw new TokenError('Unknown token type');
  if (version !== '1' && version !== '2') throw new TokenError('Unknown token version');
  return claims as unknown as TokenClaims;
}

export const userUrnOf = (actorId: string) => `urn:li:corpuser:${actorId}`;

/** URL-safe, so the id reads well in URNs and paths. */
export function tokenIdOf(token: string, salt: string): string {
  return createHmac('sha256', salt).update(token).digest('base64url');
}

export const tokenUrnOf = (id: string) => `urn:li:${ACCESS_TOKEN_ENTITY}:${id}`;
