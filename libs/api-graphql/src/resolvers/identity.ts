/** Users and groups: types, single reads and lists. */
import type { GraphqlContext } from '../context';
import { existing, keyOf, refOf, requireRef, type EntityRef } from '../refs';
import { commonFields, customProperties, fromAspect } from './aspect-fields';
import { listEntities } from './listing';
import { graphFields } from './relationships';

function userProperties(v: any, ref: EntityRef, ctx: GraphqlContext) {
  return {
    ...v,
    active: v.active ?? false,
    manager: refOf(ctx, v.managerUrn),
    customProperties: customProperties(v.customProperties, ref.urn),
  };
}

export const identityResolvers = {
  Query: {
    corpUser: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'corpuser')),
    corpGroup: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'corpGroup')),
    listUsers: async (_: unknown, args: { input: { start?: number; count?: number; query?: string } }, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'corpuser', args.input);
      return { start: page.start, count: page.entities.length, total: page.total, users: page.entities };
    },
    listGroups: async (_: unknown, args: { input: { start?: number; count?: number; query?: string } }, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'corpGroup', args.input);
      return { start: page.start, count: page.entities.length, total: page.total, groups: page.entities };
    },
  },
  CorpUser: {
    type: commonFields.type,
    tags: commonFields.tags,
    globalTags: commonFields.globalTags,
    relationships: graphFields.relationships,
    username: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).username,
    properties: fromAspect('corpUserInfo', userProperties),
    editableProperties: fromAspect('corpUserEditableInfo'),
    status: fromAspect<{ status?: string }>('corpUserStatus', (v) => (v.status === 'ACTIVE' ? 'ACTIVE' : null)),
  },
  CorpGroup: {
    type: commonFields.type,
    ownership: commonFields.ownership,
    relationships: graphFields.relationships,
    name: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).name,
    properties: fromAspect('corpGroupInfo'),
    editableProperties: fromAspect('corpGroupEditableInfo'),
  },
  OwnerType: {
    __resolveType: (ref: EntityRef) => (ref.entityName === 'corpGroup' ? 'CorpGroup' : 'CorpUser'),
  },
};
