/** Turns credentials into an actor, or refuses them with 401. */
import type { Actor } from '../actor';
import type { Credentials } from '../credentials';
import { unauthenticated } from '../errors';
import { TokenError } from '../jwt';
import { secretMatcher } from '../secrets';
import type { AccessTokenService } from './access-token-service';
import type { Accounts } from './accounts';

export interface SystemClient {
  readonly id: string;
  readonly secret?: string;
}

/** Both parts of the system client's credentials as one string no other pair of parts spells. */
const systemCredentials = (id: string, secret: string) => JSON.stringify([id, secret]);

export class Authenticator {
  /** Undefined when no secret is configured: then no Basic credentials are accepted. */
  private readonly isSystemClient?: (credentials: string) => boolean;

  constructor(
    private readonly system: SystemClient,
    private readonly tokens: AccessTokenService,
    private readonly accounts: Accounts,
  ) {
    // The system client calls the most (every ingestion of a deployment with authentication on): one digest a request.
    if (system.secret !== undefined) this.isSystemClient = secretMatcher(systemCredentials(system.id, system.secret));
  }

  /** `fromCookie`: only a session token is accepted there. */
  async authenticate(credentials: Credentials, fromCookie = false): Promise<Actor> {
    if (credentials.kind === 'basic') return this.systemClient(credentials.clientId, credentials.secret);
    let claims;
    try {
      claims = await this.tokens.verify(credentials.token);
    } catch (err) {
      if (err instanceof TokenError) throw unauthenticated(`Invalid credentials: ${err.message}`);
      throw err;
    }
    if (fromCookie && claims.type !== 'SESSION') throw unauthenticated('Invalid credentials: the session cookie holds no session token');
    if (this.accounts.isReserved(claims.actorId)) throw unauthenticated('Invalid credentials: tokens cannot act as the system client');
    const identity = await this.accounts.identity(claims.actorUrn);
    if (!identity.exists) throw unauthenticated(`Invalid credentials: user ${claims.actorUrn} does not exist`);
    if (identity.suspended) throw unauthenticated(`Invalid credentials: user ${claims.actorUrn} is suspended`);
    return { urn: claims.actorUrn, system: false, via: claims.type === 'SESSION' ? 'session' : 'token' };
  }

  private systemClient(id: string, secret: string): Actor {
    // Both parts are compared in one digest, so the timing tells nothing about which one was wrong.
    if (!this.isSystemClient?.(systemCredentials(id, secret))) throw unauthenticated('Invalid credentials: unknown client or wrong secret');
    return { urn: `urn:li:corpuser:${this.system.id}`, system: true, via: 'basic' };
  }
}
