/** Policies: list, create, update, delete (all need MANAGE_POLICIES); default policies that are not editable stay as they are. */
import { randomUUID } from 'node:crypto';
import { policyUrnOf, type PolicyInfo, type StoredPolicy } from '@cairn/auth';
import type { GraphqlContext } from '../context';
import { badInput, notFound } from '../errors';
import { guard, page, servicesOf, served } from './guard';

interface PolicyInput {
  type: PolicyInfo['type'];
  name: string;
  state: PolicyInfo['state'];
  description?: string | null;
  resources?: { type?: string | null; resources?: string[] | null; allResources?: boolean | null; filter?: { criteria?: { field: string; values: string[]; condition: 'EQUALS' | 'STARTS_WITH' }[] | null } | null } | null;
  privileges: string[];
  actors: { users?: string[] | null; groups?: string[] | null; roles?: string[] | null; resourceOwners: boolean; resourceOwnersTypes?: string[] | null; allUsers: boolean; allGroups: boolean };
}

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

function infoOf(ctx: GraphqlContext, input: PolicyInput): PolicyInfo {
  const unknown = input.privileges.filter((p) => !servicesOf(ctx).catalog.isKnown(p));
  if (unknown.length) throw badInput(`Unknown privileges: ${unknown.join(', ')}`);
  if (!input.name.trim()) throw badInput('A policy needs a name');
  const r = input.resources;
  const a = input.actors;
  return {
    displayName: input.name,
    description: input.description ?? '',
    type: input.type,
    state: input.state,
    ...(input.type === 'METADATA' && r
      ? {
          resources: {
            ...(present(r.type) ? { type: r.type } : {}),
            ...(present(r.resources) ? { resources: r.resources } : {}),
            allResources: r.allResources ?? false,
            ...(r.filter?.criteria ? { filter: { criteria: r.filter.criteria.map((c) => ({ field: c.field, values: c.values, condition: c.condition })) } } : {}),
          },
        }
      : {}),
    privileges: input.privileges,
    actors: {
      ...(present(a.users) ? { users: a.users } : {}),
      ...(present(a.groups) ? { groups: a.groups } : {}),
      ...(present(a.roles) ? { roles: a.roles } : {}),
      resourceOwners: a.resourceOwners,
      ...(present(a.resourceOwnersTypes) ? { resourceOwnersTypes: a.resourceOwnersTypes } : {}),
      allUsers: a.allUsers,
      allGroups: a.allGroups,
    },
    editable: true,
    lastUpdatedTimestamp: Date.now(),
  };
}

function policyOf({ urn, info }: StoredPolicy) {
  const r = info.resources;
  return {
    urn,
    type: info.type,
    name: info.displayName,
    state: info.state,
    description: info.description,
    resources: r ? { ...r, filter: r.filter ? { criteria: r.filter.criteria.map((c) => ({ ...c, condition: c.condition ?? 'EQUALS', values: c.values.map((value) => ({ value })) })) } : null } : null,
    privileges: info.privileges,
    actors: { ...info.actors, resourceOwners: info.actors.resourceOwners ?? false, allUsers: info.actors.allUsers ?? false, allGroups: info.actors.allGroups ?? false },
    editable: info.editable ?? true,
  };
}

async function editable(ctx: GraphqlContext, urn: string): Promise<StoredPolicy> {
  const existing = await servicesOf(ctx).policies.get(urn);
  if (!existing) throw notFound(`No policy ${urn}`);
  if (existing.info.editable === false) throw badInput(`Policy ${urn} is a default policy that cannot be changed or removed`);
  return existing;
}

export const policyResolvers = {
  Query: {
    listPolicies: async (_: unknown, { input }: { input: { start?: number | null; count?: number | null; query?: string | null } }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_POLICIES', 'list policies');
      const q = input.query?.trim().toLowerCase();
      const all = (await servicesOf(ctx).policies.all())
        .filter((p) => !q || p.info.displayName.toLowerCase().includes(q) || p.info.description.toLowerCase().includes(q))
        .sort((a, b) => a.info.displayName.localeCompare(b.info.displayName));
      const { start, count, total, slice } = page(ctx, all, input);
      return { start, count, total, policies: slice.map(policyOf) };
    },
  },
  Mutation: {
    createPolicy: async (_: unknown, { input }: { input: PolicyInput }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_POLICIES', 'create policies');
      const policy = { urn: policyUrnOf(randomUUID()), info: infoOf(ctx, input) };
      await served(() => servicesOf(ctx).policies.save([policy], ctx.auth.actor.urn));
      return policy.urn;
    },
    updatePolicy: async (_: unknown, { urn, input }: { urn: string; input: PolicyInput }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_POLICIES', 'edit policies');
      await editable(ctx, urn);
      await served(() => servicesOf(ctx).policies.save([{ urn, info: infoOf(ctx, input) }], ctx.auth.actor.urn));
      return urn;
    },
    deletePolicy: async (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_POLICIES', 'remove policies');
      await editable(ctx, urn);
      await served(() => servicesOf(ctx).policies.remove(urn, ctx.auth.actor.urn));
      return urn;
    },
  },
};
