/** Queries over any entity type: entity, entities, entityExists, getEntityCounts (`me` is with the auth resolvers). */
import type { GraphqlContext } from '../context';
import { entityNamesOf, typeOfEntity } from '../entity-types';
import { existing, refOf, requireRef, type EntityRef } from '../refs';
import { selectionOf } from './search-plans';

export const rootQueryResolvers = {
  Query: {
    entity: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, refOf(ctx, args.urn)),
    entities: async (_: unknown, args: { urns: string[] }, ctx: GraphqlContext) => {
      const found = await Promise.all(args.urns.map((u) => existing(ctx, refOf(ctx, u))));
      return found.filter((r) => r !== null);
    },
    entityExists: async (_: unknown, args: { urn: string }, ctx: GraphqlContext) =>
      ctx.catalog.store.exists(requireRef(ctx, args.urn).urn),
    /** Counts from the search index, so soft-deleted entities are not counted, as in the reference. */
    getEntityCounts: async (_: unknown, args: { input?: { types?: string[] | null } | null }, ctx: GraphqlContext) => {
      const names = entityNamesOf(args.input?.types);
      const counts = await ctx.catalog.search.countByType(selectionOf(ctx, names));
      return { counts: names.map((n) => ({ entityType: typeOfEntity(n)?.enumValue, count: counts[n] ?? 0 })) };
    },
  },
  Entity: {
    __resolveType: (ref: EntityRef) => typeOfEntity(ref.entityName)?.objectType,
  },
  EntityWithRelationships: {
    __resolveType: (ref: EntityRef) => typeOfEntity(ref.entityName)?.objectType,
  },
  BrowsableEntity: {
    __resolveType: (ref: EntityRef) => typeOfEntity(ref.entityName)?.objectType,
  },
};
