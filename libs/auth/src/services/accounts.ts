/**
 * Users as the authorizer sees them (groups, roles, suspension) and native accounts: users with a
 * password (corpUserCredentials), created by an administrator or, for the root user, from the
 * environment on first start.
 */
import type { AspectReads } from '@cairn/ports';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyAgainstNothing, verifyPassword, type PasswordCredentials } from '../passwords';
import type { ActorIdentity } from '../policies';
import { knownRoles } from '../default-policies';
import { upsert, type Proposer } from './proposals';
import { LoadingCache } from './loading-cache';

export interface UserIdentity extends ActorIdentity {
  /** Removed users (and names no user has) cannot act, whatever token they hold. */
  readonly exists: boolean;
  readonly suspended: boolean;
}

export interface NewUser {
  readonly username: string;
  readonly password: string;
  readonly fullName?: string;
  readonly email?: string;
  readonly title?: string;
}

export class AccountError extends Error {}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$/;
/** The aspects of a user that authorization reads. */
export const IDENTITY_ASPECTS = ['groupMembership', 'nativeGroupMembership', 'roleMembership', 'corpUserStatus'];

export const corpUserUrn = (username: string) => `urn:li:corpuser:${username}`;

export class Accounts {
  private readonly identities: LoadingCache<UserIdentity>;

  constructor(
    private readonly store: AspectReads,
    private readonly proposer: Proposer,
    cacheMs: number,
    /** Names no user may have: the system client's. */
    private readonly reserved: readonly string[],
  ) {
    this.identities = new LoadingCache(cacheMs, (urn) => this.readIdentity(urn));
  }

  identity(urn: string): Promise<UserIdentity> {
    return this.identities.get(urn);
  }

  private async readIdentity(urn: string): Promise<UserIdentity> {
    const aspects = new Map((await this.store.getLatest([urn], [...IDENTITY_ASPECTS, 'corpUserKey'])).map((r) => [r.aspect, JSON.parse(r.metadata)]));
    return {
      urn,
      groups: [...new Set<string>([...(aspects.get('groupMembership')?.groups ?? []), ...(aspects.get('nativeGroupMembership')?.nativeGroups ?? [])])],
      roles: aspects.get('roleMembership')?.roles ?? [],
      exists: aspects.size > 0,
      suspended: aspects.get('corpUserStatus')?.status === 'SUSPENDED',
    };
  }

  /** Changes of a user's roles or groups show at once in this process. */
  forget(urn: string): void {
    this.identities.delete(urn);
  }

  isReserved(username: string): boolean {
    return this.reserved.includes(username);
  }

  /** The user's URN when the password is theirs; unknown users take as long as known ones. */
  async checkPassword(username: string, password: string): Promise<string | undefined> {
    if (!USERNAME.test(username) || this.isReserved(username)) return verifyAgainstNothing(password).then(() => undefined);
    const urn = corpUserUrn(username);
    const [row] = await this.store.getLatest([urn], ['corpUserCredentials']);
    if (!row) return verifyAgainstNothing(password).then(() => undefined);
    return (await verifyPassword(password, JSON.parse(row.metadata) as PasswordCredentials)) ? urn : undefined;
  }

  checkUsername(username: string): void {
    if (!USERNAME.test(username)) throw new AccountError(`Invalid username '${username}': letters, digits and . _ @ + - only, at most 100 characters`);
    if (this.isReserved(username)) throw new AccountError(`The username '${username}' is reserved`);
  }

  async createNativeUser(user: NewUser, actor: string): Promise<string> {
    this.checkUsername(user.username);
    if (user.password.length < MIN_PASSWORD_LENGTH) throw new AccountError(`A password needs at least ${MIN_PASSWORD_LENGTH} characters`);
    const urn = corpUserUrn(user.username);
    if ((await this.store.getLatest([urn], ['corpUserCredentials'])).length > 0) throw new AccountError(`User ${urn} already has a password`);
    const info = {
      active: true,
      displayName: user.fullName ?? user.username,
      ...(user.fullName ? { fullName: user.fullName } : {}),
      ...(user.email ? { email: user.email } : {}),
      ...(user.title ? { title: user.title } : {}),
    };
    await this.proposer.propose(
      [
        upsert('corpuser', urn, 'corpUserInfo', info),
        upsert('corpuser', urn, 'corpUserStatus', { status: 'ACTIVE', lastModified: { time: Date.now(), actor } }),
        upsert('corpuser', urn, 'corpUserCredentials', await hashPassword(user.password)),
      ],
      { actor },
    );
    return urn;
  }

  /** Replaces the users' roles by `roleUrn` (none when null), as the reference's batchAssignRole. */
  async assignRole(userUrns: readonly string[], roleUrn: string | null, actor: string): Promise<void> {
    if (roleUrn !== null && !knownRoles().some((r) => r.urn === roleUrn)) throw new AccountError(`Unknown role ${roleUrn}; known: ${knownRoles().map((r) => r.urn).join(', ')}`);
    await this.proposer.propose(userUrns.map((u) => upsert('corpuser', u, 'roleMembership', { roles: roleUrn ? [roleUrn] : [] })), { actor });
    for (const u of userUrns) this.forget(u);
  }

  /** The root user gets its password once; a later change of the environment does not overwrite it. */
  async ensureRootUser(username: string, password: string): Promise<boolean> {
    const urn = corpUserUrn(username);
    if ((await this.store.getLatest([urn], ['corpUserCredentials'])).length > 0) return false;
    await this.proposer.propose(
      [
        upsert('corpuser', urn, 'corpUserInfo', { active: true, displayName: username }),
        upsert('corpuser', urn, 'corpUserCredentials', await hashPassword(password)),
      ],
      { actor: SYSTEM_ACTOR },
    );
    return true;
  }
}
