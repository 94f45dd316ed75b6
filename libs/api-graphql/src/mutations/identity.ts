/** Users and groups: create groups, manage members, edit properties, remove. */
import type { GraphqlContext } from '../context';
import type { EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';

/** Members of groups made here (native) are recorded apart from those synced from elsewhere, as in the reference. */
async function membershipAspect(cs: Changeset, group: EntityRef): Promise<{ aspect: string; field: string }> {
  const origin = await cs.current<{ type?: string }>(group, 'origin');
  return origin?.type === 'EXTERNAL' ? { aspect: 'groupMembership', field: 'groups' } : { aspect: 'nativeGroupMembership', field: 'nativeGroups' };
}

function editMembers(op: 'add' | 'remove') {
  return (_: unknown, { input }: { input: { groupUrn: string; userUrns: string[] } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const group = await cs.existing(input.groupUrn, ['corpGroup']);
      const { aspect, field } = await membershipAspect(cs, group);
      for (const u of input.userUrns) {
        const user = await cs.existing(u, ['corpuser']);
        await cs.update<Record<string, string[]>>(user, aspect, (current) => {
          const groups = current?.[field] ?? [];
          return { [field]: op === 'add' ? [...groups.filter((g) => g !== group.urn), group.urn] : groups.filter((g) => g !== group.urn) };
        });
      }
      return true;
    });
}

function remove(entityName: string) {
  return (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      cs.delete(await cs.existing(urn, [entityName]));
      return true;
    });
}

/** The given (non-null) fields of an input, merged into the current aspect value. */
function merged(current: Record<string, unknown> | undefined, input: Record<string, unknown>) {
  return { ...current, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) };
}

export const identityMutations = {
  createGroup: (_: unknown, { input }: { input: { id?: string | null; name: string; description?: string | null } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const group = await cs.created('corpGroup', input.id, 'Group');
      cs.set(group, 'corpGroupInfo', {
        displayName: input.name,
        ...(input.description != null ? { description: input.description } : {}),
        admins: [],
        members: [],
        groups: [],
        created: cs.stamp,
      });
      cs.set(group, 'origin', { type: 'NATIVE' });
      return group.urn;
    }),
  addGroupMembers: editMembers('add'),
  removeGroupMembers: editMembers('remove'),
  removeUser: remove('corpuser'),
  removeGroup: remove('corpGroup'),
  updateCorpUserProperties: (_: unknown, args: { urn: string; input: Record<string, unknown> }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const user = await cs.existing(args.urn, ['corpuser']);
      await cs.update<Record<string, unknown>>(user, 'corpUserEditableInfo', (current) => merged(current, args.input));
      return user;
    }),
  updateCorpGroupProperties: (_: unknown, args: { urn: string; input: Record<string, unknown> }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const group = await cs.existing(args.urn, ['corpGroup']);
      await cs.update<Record<string, unknown>>(group, 'corpGroupEditableInfo', (current) => merged(current, args.input));
      return group;
    }),
};
