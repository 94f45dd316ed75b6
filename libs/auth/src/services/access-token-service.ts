/**
 * Issues and checks tokens. Personal tokens are recorded as dataHubAccessToken entities (written
 * through the pipeline on the caller's behalf) and are valid only while their record exists:
 * revocation hard-deletes it. Session tokens (browser logins) are stateless, as in the reference.
 */
import type { AspectReads } from '@cairn/ports';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import {
  ACCESS_TOKEN_ENTITY,
  ACCESS_TOKEN_INFO,
  newTokenClaims,
  tokenClaimsOf,
  tokenIdOf,
  tokenUrnOf,
  userUrnOf,
  type TokenClaims,
} from '../access-tokens';
import { signJwt, TokenError, verifyJwt } from '../jwt';
import { removal, upsert, type Proposer } from './proposals';
import { LoadingCache } from './loading-cache';

export interface AccessTokenMetadata {
  readonly id: string;
  readonly urn: string;
  readonly name: string;
  readonly description?: string;
  readonly actorUrn: string;
  readonly ownerUrn: string;
  readonly createdAt: number;
  readonly expiresAt?: number;
}

export interface TokenServiceOptions {
  readonly signingKey: string;
  readonly salt: string;
  readonly issuer: string;
  readonly sessionTtlMs: number;
  /** How long a token's record is trusted to exist (or not) without looking again. */
  readonly cacheMs: number;
}

const SCAN_PAGE = 1000;

export class AccessTokenService {
  /** Whether a personal token's record exists, by token id. */
  private readonly recorded: LoadingCache<boolean>;

  constructor(
    private readonly store: AspectReads,
    private readonly proposer: Proposer,
    private readonly options: TokenServiceOptions,
  ) {
    this.recorded = new LoadingCache(options.cacheMs, (id) => store.exists(tokenUrnOf(id)));
  }

  async createPersonal(input: { actorUrn: string; ownerUrn: string; name: string; description?: string; ttlMs: number | null }): Promise<{ token: string; metadata: AccessTokenMetadata }> {
    const now = Date.now();
    const actorId = input.actorUrn.slice('urn:li:corpuser:'.length);
    const token = signJwt({ ...newTokenClaims('PERSONAL', actorId, input.ttlMs, this.options.issuer, now) }, this.options.signingKey);
    const id = tokenIdOf(token, this.options.salt);
    const info = {
      name: input.name,
      actorUrn: input.actorUrn,
      ownerUrn: input.ownerUrn,
      createdAt: now,
      ...(input.ttlMs !== null ? { expiresAt: now + input.ttlMs } : {}),
      ...(input.description ? { description: input.description } : {}),
    };
    // Written by the system once the caller's privilege was checked; the record names the owner.
    await this.proposer.propose([upsert(ACCESS_TOKEN_ENTITY, tokenUrnOf(id), ACCESS_TOKEN_INFO, info)], { actor: SYSTEM_ACTOR });
    return { token, metadata: { id, urn: tokenUrnOf(id), ...info } };
  }

  createSession(actorUrn: string): string {
    const actorId = actorUrn.slice('urn:li:corpuser:'.length);
    return signJwt({ ...newTokenClaims('SESSION', actorId, this.options.sessionTtlMs, this.options.issuer) }, this.options.signingKey);
  }

  /** The claims of a valid token; a TokenError (expired, revoked, forged, ...) otherwise. */
  async verify(token: string): Promise<TokenClaims & { actorUrn: string }> {
    const claims = tokenClaimsOf(verifyJwt(token, this.options.signingKey), this.options.issuer);
    if (claims.type === 'PERSONAL') {
      if (claims.version !== '2') throw new TokenError('Personal tokens must be issued by this service');
      if (!(await this.recorded.get(tokenIdOf(token, this.options.salt)))) throw new TokenError('Token revoked or unknown');
    }
    return { ...claims, actorUrn: userUrnOf(claims.actorId) };
  }

  async get(id: string): Promise<AccessTokenMetadata | undefined> {
    const [row] = await this.store.getLatest([tokenUrnOf(id)], [ACCESS_TOKEN_INFO]);
    return row ? { id, urn: row.urn, ...JSON.parse(row.metadata) } : undefined;
  }

  async list(): Promise<AccessTokenMetadata[]> {
    const out: AccessTokenMetadata[] = [];
    for (let start = 0; ; start += SCAN_PAGE) {
      const rows = await this.store.scanLatest({ entityType: ACCESS_TOKEN_ENTITY, aspect: ACCESS_TOKEN_INFO, start, limit: SCAN_PAGE });
      for (const r of rows) out.push({ id: r.urn.slice(tokenUrnOf('').length), urn: r.urn, ...JSON.parse(r.metadata) });
      if (rows.length < SCAN_PAGE) return out;
    }
  }

  /**
   * Deletes the record and answers once no instance can still accept the token: this one forgets
   * it at once, others (sharing the store) after their cache entry expires, which is waited out.
   */
  async revoke(id: string): Promise<void> {
    await this.proposer.propose([removal(ACCESS_TOKEN_ENTITY, tokenUrnOf(id), 'dataHubAccessTokenKey')], { actor: SYSTEM_ACTOR });
    this.recorded.delete(id);
    if (this.options.cacheMs > 0) await new Promise((r) => setTimeout(r, this.options.cacheMs));
  }
}
