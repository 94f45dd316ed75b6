/** The auth services of one API process, over the store and the write pipeline. */
import type { Logger } from '@cairn/core';
import type { AspectReads } from '@cairn/ports';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import { unrestrictedAuth, type Actor, type RequestAuth } from '../actor';
import type { AuthSecrets } from '../auth-secrets';
import type { AuthSettings } from '../auth-settings';
import { defaultPolicies } from '../default-policies';
import { forbidden } from '../errors';
import { defaultPrivilegeCatalog, type PrivilegeCatalog } from '../privileges';
import { AccessTokenService } from './access-token-service';
import { Accounts, corpUserUrn } from './accounts';
import { Authenticator } from './authenticator';
import { Authorizer, type ResourceRef } from './authorizer';
import { PolicyStore } from './policy-store';
import { upsert, type Proposer } from './proposals';

export interface AuthServices {
  readonly settings: AuthSettings;
  readonly catalog: PrivilegeCatalog;
  readonly accounts: Accounts;
  readonly policies: PolicyStore;
  readonly authorizer: Authorizer;
  /** Undefined when no signing key is configured (possible only with authentication disabled). */
  readonly tokens?: AccessTokenService;
  readonly authenticator?: Authenticator;
  /** The per-request view for an authenticated actor. */
  forActor(actor: Actor): RequestAuth;
  /** Every request's view while authentication is disabled. */
  readonly unrestricted: RequestAuth;
}

export function createAuthServices(settings: AuthSettings, secrets: AuthSecrets | undefined, store: AspectReads, proposer: Proposer): AuthServices {
  const catalog = defaultPrivilegeCatalog();
  const systemUrn = corpUserUrn(settings.systemClientId);
  const accounts = new Accounts(store, proposer, settings.cacheMs, [...new Set(['__datahub_system', settings.systemClientId])]);
  const policies = new PolicyStore(store, proposer, settings.cacheMs);
  const authorizer = new Authorizer(catalog, policies, accounts, store, [...new Set([SYSTEM_ACTOR, systemUrn])]);
  const tokens = secrets
    ? new AccessTokenService(store, proposer, { signingKey: secrets.signingKey, salt: secrets.salt, issuer: settings.issuer, sessionTtlMs: settings.sessionTtlMs, cacheMs: settings.cacheMs })
    : undefined;
  const authenticator = tokens ? new Authenticator({ id: settings.systemClientId, ...(secrets?.systemClientSecret ? { secret: secrets.systemClientSecret } : {}) }, tokens, accounts) : undefined;
  const forActor = (actor: Actor): RequestAuth => {
    const list = (p: string | readonly string[]) => (typeof p === 'string' ? [p] : p);
    const can = (privileges: string | readonly string[], resource?: ResourceRef) => (actor.system ? Promise.resolve(true) : authorizer.can(actor.urn, list(privileges), resource));
    // One decision per secret aspect and request (a GraphQL query may read many users).
    const readable = new Map<string, Promise<boolean>>();
    const mayReadAspect = (aspect: string): Promise<boolean> => {
      const needs = catalog.secretAspect(aspect);
      if (!needs || actor.system) return Promise.resolve(true);
      let decided = readable.get(aspect);
      if (!decided) readable.set(aspect, (decided = can(needs)));
      return decided;
    };
    return {
      actor,
      can,
      mayReadAspect,
      require: async (privileges, what, resource) => {
        if (!(await can(privileges, resource))) throw forbidden(`${actor.urn} may not ${what}; that needs ${list(privileges).join(' or ')}${resource ? ` on ${resource.urn}` : ''}`);
      },
    };
  };
  return {
    settings,
    catalog,
    accounts,
    policies,
    authorizer,
    ...(tokens ? { tokens } : {}),
    ...(authenticator ? { authenticator } : {}),
    forActor,
    unrestricted: unrestrictedAuth(SYSTEM_ACTOR),
  };
}

const BOOTSTRAP_URN = 'urn:li:dataHubUpgrade:cairn-default-policies-v1';

/**
 * First start with authentication: the default policies are installed once (a marker records it,
 * so a default policy an administrator removed stays removed), and the root user gets the
 * password from the environment if it has none yet.
 */
export async function bootstrapAuth(services: AuthServices, store: AspectReads, proposer: Proposer, logger: Logger): Promise<void> {
  const { settings } = services;
  if (!(await store.exists(BOOTSTRAP_URN))) {
    const defaults = defaultPolicies(services.catalog, corpUserUrn(settings.rootUser));
    const present = new Set((await services.policies.all()).map((p) => p.urn));
    const missing = defaults.filter((p) => !present.has(p.urn));
    if (missing.length) await services.policies.save(missing, SYSTEM_ACTOR);
    await proposer.propose([upsert('dataHubUpgrade', BOOTSTRAP_URN, 'dataHubUpgradeResult', { timestampMs: Date.now(), result: { installedPolicies: String(missing.length) } })], { actor: SYSTEM_ACTOR });
    logger.info('installed the default policies', { count: missing.length });
  }
  if (settings.rootPassword) {
    if (await services.accounts.ensureRootUser(settings.rootUser, settings.rootPassword)) logger.info('created the root user', { user: settings.rootUser });
  } else if (!(await store.getLatest([corpUserUrn(settings.rootUser)], ['corpUserCredentials'])).length) {
    logger.warn('AUTH_ROOT_PASSWORD is not set and the root user has no password: nobody can log in yet', { user: settings.rootUser });
  }
}
