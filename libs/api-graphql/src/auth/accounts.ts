/** Native users, roles, the privileges an actor holds, and `me`. */
import { AccountError, knownRoles } from '@cairn/auth';
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { requireRef, type EntityRef } from '../refs';
import { guard, page, servicesOf, served } from './guard';

async function accountCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await served(call);
  } catch (err) {
    throw err instanceof AccountError ? badInput(err.message) : err;
  }
}

/** `me.platformPrivileges`: each privilege with a GraphQL field, as the actor holds it. */
async function platformPrivileges(ctx: GraphqlContext): Promise<Record<string, boolean>> {
  const services = servicesOf(ctx);
  const { actor } = ctx.auth;
  const held = actor.system ? undefined : await services.authorizer.platformPrivileges(actor.urn);
  return Object.fromEntries(services.catalog.platform.filter((p) => p.graphqlField).map((p) => [p.graphqlField, held ? held.has(p.name) : true]));
}

export const accountResolvers = {
  Query: {
    me: async (_: unknown, _args: unknown, ctx: GraphqlContext) => ({
      corpUser: { urn: ctx.auth.actor.urn, entityName: 'corpuser' } satisfies EntityRef,
      platformPrivileges: await platformPrivileges(ctx),
    }),
    listRoles: (_: unknown, { input }: { input: { start?: number | null; count?: number | null } }, ctx: GraphqlContext) => {
      const { start, count, total, slice } = page(ctx, knownRoles(), input);
      return { start, count, total, roles: slice };
    },
    /** One's own, or anyone's with MANAGE_POLICIES. */
    getGrantedPrivileges: async (_: unknown, { input }: { input: { actorUrn: string; resourceSpec?: { resourceUrn: string } | null } }, ctx: GraphqlContext) => {
      const actor = requireRef(ctx, input.actorUrn, 'corpuser');
      if (actor.urn !== ctx.auth.actor.urn) await guard(ctx, 'MANAGE_POLICIES', `see the privileges of ${actor.urn}`);
      const { catalog, authorizer } = servicesOf(ctx);
      const resource = input.resourceSpec ? requireRef(ctx, input.resourceSpec.resourceUrn) : undefined;
      const candidates = [...catalog.platform, ...(resource ? catalog.resource : [])].map((p) => p.name);
      const held = await Promise.all(candidates.map((p) => authorizer.can(actor.urn, [p], resource && catalog.resource.some((r) => r.name === p) ? { type: resource.entityName, urn: resource.urn } : undefined)));
      return { privileges: candidates.filter((_p, i) => held[i]) };
    },
  },
  Mutation: {
    createNativeUser: async (_: unknown, { input }: { input: { username: string; password: string; fullName?: string | null; email?: string | null; title?: string | null } }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_USERS_AND_GROUPS', 'create users');
      await guard(ctx, 'MANAGE_USER_CREDENTIALS', 'set passwords');
      const { username, password, fullName, email, title } = input;
      return accountCall(() =>
        servicesOf(ctx).accounts.createNativeUser({ username, password, ...(fullName ? { fullName } : {}), ...(email ? { email } : {}), ...(title ? { title } : {}) }, ctx.auth.actor.urn),
      );
    },
    batchAssignRole: async (_: unknown, { input }: { input: { roleUrn?: string | null; actors: string[] } }, ctx: GraphqlContext) => {
      await guard(ctx, 'MANAGE_USERS_AND_GROUPS', 'assign roles');
      const users = input.actors.map((u) => requireRef(ctx, u, 'corpuser').urn);
      await accountCall(() => servicesOf(ctx).accounts.assignRole(users, input.roleUrn ?? null, ctx.auth.actor.urn));
      return true;
    },
  },
};
