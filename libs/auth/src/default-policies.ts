/** The roles and the default policies of `schemas/auth/default-policies.yaml`, placeholders expanded. */
import { resolve } from 'node:path';
import { policyUrnOf, type PolicyInfo, type StoredPolicy } from './policies';
import { AUTH_MODEL_DIR, readAuthYaml, type PrivilegeCatalog } from './privileges';

export interface RoleDef {
  readonly urn: string;
  readonly name: string;
  readonly description: string;
}

interface RawDefaults {
  roles: RoleDef[];
  policies: { id: string; info: PolicyInfo }[];
}

const read = (): RawDefaults => readAuthYaml(resolve(AUTH_MODEL_DIR, 'default-policies.yaml')) as RawDefaults;

let roles: readonly RoleDef[] | undefined;

export function knownRoles(): readonly RoleDef[] {
  roles ??= read().roles;
  return roles;
}

export function defaultPolicies(catalog: PrivilegeCatalog, rootUserUrn: string): StoredPolicy[] {
  const expand = (privileges: readonly string[]) =>
    privileges.flatMap((p) => (p === 'ALL_PLATFORM' ? catalog.platform.map((d) => d.name) : p === 'ALL_RESOURCE' ? catalog.resource.map((d) => d.name) : [p]));
  return read().policies.map(({ id, info }) => ({
    urn: policyUrnOf(id),
    info: {
      ...info,
      privileges: expand(info.privileges),
      actors: { ...info.actors, ...(info.actors.users ? { users: info.actors.users.map((u) => (u === '$ROOT_USER' ? rootUserUrn : u)) } : {}) },
    },
  }));
}
