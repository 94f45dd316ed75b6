/** Domains: creating and deleting them, and assigning entities to them. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { mutate } from './changeset';
import { creatorAsOwner } from './owners';
import type { ResourceRef } from './labels';

async function setDomain(ctx: GraphqlContext, domainUrn: string | null, resourceUrns: string[]): Promise<boolean> {
  if (resourceUrns.length === 0) throw badInput('At least one resource is required');
  return mutate(ctx, async (cs) => {
    if (domainUrn) await cs.existing(domainUrn, ['domain']);
    for (const urn of resourceUrns) cs.set(await cs.existing(urn), 'domains', { domains: domainUrn ? [domainUrn] : [] });
    return true;
  });
}

export const domainMutations = {
  createDomain: (_: unknown, { input }: { input: { id?: string | null; name: string; description?: string | null } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const domain = await cs.created('domain', input.id, 'Domain');
      cs.set(domain, 'domainProperties', { name: input.name, ...(input.description != null ? { description: input.description } : {}), created: cs.stamp });
      cs.set(domain, 'ownership', creatorAsOwner(cs));
      return domain.urn;
    }),
  deleteDomain: (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      cs.delete(await cs.existing(urn, ['domain']));
      return true;
    }),
  setDomain: (_: unknown, args: { entityUrn: string; domainUrn: string }, ctx: GraphqlContext) => setDomain(ctx, args.domainUrn, [args.entityUrn]),
  unsetDomain: (_: unknown, args: { entityUrn: string }, ctx: GraphqlContext) => setDomain(ctx, null, [args.entityUrn]),
  batchSetDomain: (_: unknown, { input }: { input: { domainUrn?: string | null; resources: ResourceRef[] } }, ctx: GraphqlContext) =>
    setDomain(ctx, input.domainUrn ?? null, input.resources.map((r) => r.resourceUrn)),
};
