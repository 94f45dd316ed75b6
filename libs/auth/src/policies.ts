/**
 * The reference's policy model (dataHubPolicyInfo) and how one policy is evaluated: an ACTIVE
 * policy grants its privileges to the actors its actor filter selects; a METADATA policy only on
 * the resources its resource filter selects, a PLATFORM policy regardless of any resource.
 */

export const POLICY_ENTITY = 'dataHubPolicy';
export const POLICY_INFO = 'dataHubPolicyInfo';
export const policyUrnOf = (id: string) => `urn:li:${POLICY_ENTITY}:${id}`;

export interface PolicyCriterion {
  readonly field: string;
  readonly values: readonly string[];
  readonly condition?: 'EQUALS' | 'STARTS_WITH';
}

export interface PolicyInfo {
  readonly displayName: string;
  readonly description: string;
  readonly type: 'PLATFORM' | 'METADATA';
  readonly state: 'ACTIVE' | 'INACTIVE' | 'DRAFT';
  readonly resources?: {
    readonly type?: string;
    readonly resources?: readonly string[];
    readonly allResources?: boolean;
    readonly filter?: { readonly criteria: readonly PolicyCriterion[] };
  };
  readonly privileges: readonly string[];
  readonly actors: {
    readonly users?: readonly string[];
    readonly groups?: readonly string[];
    readonly roles?: readonly string[];
    readonly resourceOwners?: boolean;
    readonly resourceOwnersTypes?: readonly string[];
    readonly allUsers?: boolean;
    readonly allGroups?: boolean;
  };
  readonly editable?: boolean;
  readonly lastUpdatedTimestamp?: number;
}

export interface StoredPolicy {
  readonly urn: string;
  readonly info: PolicyInfo;
}

/** Who asks: a user and the groups and roles it belongs to. */
export interface ActorIdentity {
  readonly urn: string;
  readonly groups: readonly string[];
  readonly roles: readonly string[];
}

export interface Owner {
  readonly owner: string;
  readonly type?: string;
  readonly typeUrn?: string;
}

/** The entity a privilege is asked on; facts that need a read are fetched only when a policy asks. */
export interface ResourceFacts {
  readonly type: string;
  readonly urn: string;
  owners(): Promise<readonly Owner[]>;
  domains(): Promise<readonly string[]>;
}

const intersects = (a: readonly string[] | undefined, b: readonly string[]) => (a ?? []).some((x) => b.includes(x));

function criterionValue(c: PolicyCriterion, actual: readonly string[]): boolean {
  return c.condition === 'STARTS_WITH' ? actual.some((a) => c.values.some((v) => a.startsWith(v))) : actual.some((a) => c.values.includes(a));
}

async function resourceMatches(policy: PolicyInfo, resource: ResourceFacts): Promise<boolean> {
  const r = policy.resources;
  if (!r || r.allResources) return true;
  if (r.type && r.type !== resource.type) return false;
  if (r.resources?.length && !r.resources.includes(resource.urn)) return false;
  for (const c of r.filter?.criteria ?? []) {
    const field = c.field.toUpperCase();
    const actual = field === 'TYPE' || field === 'RESOURCE_TYPE' ? [resource.type] : field === 'URN' || field === 'RESOURCE_URN' ? [resource.urn] : field === 'DOMAIN' ? await resource.domains() : [];
    if (!criterionValue(c, actual)) return false;
  }
  return true;
}

function ownerTypeMatches(owner: Owner, types: readonly string[] | undefined): boolean {
  if (!types?.length) return true;
  const legacy = owner.type ? `urn:li:ownershipType:__system__${owner.type.toLowerCase()}` : undefined;
  return types.includes(owner.typeUrn ?? '') || (legacy !== undefined && types.includes(legacy));
}

async function actorMatches(policy: PolicyInfo, actor: ActorIdentity, resource: ResourceFacts | undefined): Promise<boolean> {
  const a = policy.actors;
  if (a.allUsers || a.users?.includes(actor.urn)) return true;
  if ((a.allGroups && actor.groups.length > 0) || intersects(a.groups, actor.groups) || intersects(a.roles, actor.roles)) return true;
  if (!a.resourceOwners) return false;
  // Asked on no particular entity (a search): the actor may own some, so the policy may apply.
  if (!resource) return true;
  const mine = [actor.urn, ...actor.groups];
  return (await resource.owners()).some((o) => mine.includes(o.owner) && ownerTypeMatches(o, a.resourceOwnersTypes));
}

/**
 * Whether `policy` grants `privilege` to `actor` on `resource`; `resource` undefined asks whether
 * it grants it on some resource (platform privileges, searches).
 */
export async function policyGrants(policy: PolicyInfo, privilege: string, actor: ActorIdentity, resource: ResourceFacts | undefined): Promise<boolean> {
  if (policy.state !== 'ACTIVE' || !policy.privileges.includes(privilege)) return false;
  if (policy.type === 'METADATA' && resource && !(await resourceMatches(policy, resource))) return false;
  return actorMatches(policy, actor, resource);
}
