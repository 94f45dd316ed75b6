/** Who a request acts for, and how it proved it. */
import type { ResourceRef } from './services/authorizer';

export interface Actor {
  readonly urn: string;
  /** The system client (and every request while authentication is disabled): every privilege. */
  readonly system: boolean;
  readonly via: 'basic' | 'token' | 'session' | 'disabled';
}

/** What handlers of one request use to check privileges. */
export interface RequestAuth {
  readonly actor: Actor;
  /** Whether the actor holds any of `privileges` (on `resource`, or else on some resource or the platform). */
  can(privileges: string | readonly string[], resource?: ResourceRef): Promise<boolean>;
  /** As `can`, but refuses with 403 (`what` says what was refused). */
  require(privileges: string | readonly string[], what: string, resource?: ResourceRef): Promise<void>;
  /**
   * Whether the actor may read the aspect at all: false only for a secret aspect
   * (privileges.yaml `reads.secretAspects`) whose privilege the actor lacks.
   */
  mayReadAspect(aspect: string): Promise<boolean>;
}

/** Every privilege: the system client, and every request while authentication is disabled. */
export function unrestrictedAuth(urn: string): RequestAuth {
  return { actor: { urn, system: true, via: 'disabled' }, can: async () => true, require: async () => undefined, mayReadAspect: async () => true };
}
