/** Links (institutional memory) on entities. */
import type { GraphqlContext } from '../context';
import { mutate } from './changeset';

interface Link {
  url: string;
  description: string;
  createStamp: unknown;
}

export const linkMutations = {
  addLink: (_: unknown, { input }: { input: { linkUrl: string; label: string; resourceUrn: string } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const target = await cs.existing(input.resourceUrn);
      await cs.update<{ elements: Link[] }>(target, 'institutionalMemory', (current) => ({
        elements: [...(current?.elements ?? []), { url: input.linkUrl, description: input.label, createStamp: cs.stamp }],
      }));
      return true;
    }),
  removeLink: (_: unknown, { input }: { input: { linkUrl: string; resourceUrn: string } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const target = await cs.existing(input.resourceUrn);
      await cs.update<{ elements: Link[] }>(target, 'institutionalMemory', (current) => ({
        elements: (current?.elements ?? []).filter((e) => e.url !== input.linkUrl),
      }));
      return true;
    }),
};
