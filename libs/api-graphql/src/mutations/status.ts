/** Deprecation and soft deletion of entities. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { mutate, type Changeset } from './changeset';
import type { ResourceRef } from './labels';

interface DeprecationInput {
  deprecated: boolean;
  decommissionTime?: number | null;
  note?: string | null;
}

export function deprecationOf(input: DeprecationInput, cs: Changeset) {
  return {
    deprecated: input.deprecated,
    ...(input.decommissionTime != null ? { decommissionTime: input.decommissionTime } : {}),
    note: input.note ?? '',
    actor: cs.stamp.actor,
  };
}

async function deprecate(ctx: GraphqlContext, urns: string[], input: DeprecationInput): Promise<boolean> {
  if (urns.length === 0) throw badInput('At least one resource is required');
  return mutate(ctx, async (cs) => {
    for (const urn of urns) cs.set(await cs.existing(urn), 'deprecation', deprecationOf(input, cs));
    return true;
  });
}

export const statusMutations = {
  updateDeprecation: (_: unknown, { input }: { input: DeprecationInput & { urn: string } }, ctx: GraphqlContext) => deprecate(ctx, [input.urn], input),
  batchUpdateDeprecation: (_: unknown, { input }: { input: DeprecationInput & { resources: (ResourceRef | null)[] } }, ctx: GraphqlContext) =>
    deprecate(ctx, input.resources.flatMap((r) => (r ? [r.resourceUrn] : [])), input),
  batchUpdateSoftDeleted: (_: unknown, { input }: { input: { urns: string[]; deleted: boolean } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      if (input.urns.length === 0) throw badInput('At least one urn is required');
      for (const urn of input.urns) cs.set(await cs.existing(urn), 'status', { removed: input.deleted });
      return true;
    }),
};
