/** Tags: create, update, delete, color. */
import type { GraphqlContext } from '../context';
import { mutate } from './changeset';
import { creatorAsOwner, ownershipOf } from './owners';

interface TagProperties {
  name: string;
  description?: string;
  colorHex?: string;
}

export const tagMutations = {
  createTag: (_: unknown, { input }: { input: { id?: string | null; name: string; description?: string | null } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const tag = await cs.created('tag', input.id, 'Tag');
      cs.set(tag, 'tagProperties', { name: input.name, ...(input.description != null ? { description: input.description } : {}) });
      cs.set(tag, 'ownership', creatorAsOwner(cs));
      return tag.urn;
    }),
  updateTag: (_: unknown, args: { urn: string; input: { name: string; description?: string | null; ownership?: { owners: { owner: string; type?: string | null }[] } | null } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const tag = await cs.existing(args.urn, ['tag']);
      await cs.update<TagProperties>(tag, 'tagProperties', (current) => ({
        ...current,
        name: args.input.name,
        ...(args.input.description != null ? { description: args.input.description } : {}),
      }));
      if (args.input.ownership) cs.set(tag, 'ownership', ownershipOf(args.input.ownership, cs));
      return tag;
    }),
  deleteTag: (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      cs.delete(await cs.existing(urn, ['tag']));
      return true;
    }),
  setTagColor: (_: unknown, args: { urn: string; colorHex: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const tag = await cs.existing(args.urn, ['tag']);
      const name = tag.urn.slice('urn:li:tag:'.length);
      await cs.update<TagProperties>(tag, 'tagProperties', (current) => ({ name, ...current, colorHex: args.colorHex }));
      return true;
    }),
};
