/** Turns credentials into an actor, or refuses them with 401. */
import type { Actor } from '../actor';
import type { Credentials } from '../credentials';
import { unauthenticated } from '../errors';
import { TokenError } from '../jwt';
import { constantTimeEqual } from '../secrets';
import type { AccessTokenService } from './access-token-service';
import type { Accounts } from './accounts';

export interface SystemClient {
  readonly id: string;
  readonly secret?: string;
}

export class Authenticator {
  constructor(
    private readonly system: SystemClient,
    private readonly tokens: AccessTokenService,
    private readonly accounts: Accounts,
  ) {}

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
    const expected = this.system.secret;
    // Both parts are compared, always, so the timing tells nothing about which one was wrong.
    const idOk = constantTimeEqual(id, this.system.id);
    const secretOk = expected !== undefined && constantTimeEqual(secret, expected);
    if (!idOk || !secretOk) throw unauthenticated('Invalid credentials: unknown client or wrong secret');
    return { urn: `urn:li:corpuser:${this.system.id}`, system: true, via: 'basic' };
  }
}
