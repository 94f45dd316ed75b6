/** Containers and data platforms. */
import type { GraphqlContext } from '../context';
import { aspectOf, existing, keyOf, refOf, requireRef, type EntityRef } from '../refs';
import { commonFields, customProperties, editableDescription, fromAspect } from './aspect-fields';
import { graphFields } from './relationships';

/** A container names its platform through dataPlatformInstance; the reference's placeholder otherwise. */
async function containerPlatform(ref: EntityRef, _args: unknown, ctx: GraphqlContext) {
  const instance = await aspectOf<{ platform: string }>(ctx, ref.urn, 'dataPlatformInstance');
  return refOf(ctx, instance?.platform ?? 'urn:li:dataPlatform:unknown');
}

export const containerPlatformResolvers = {
  Query: {
    container: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'container')),
    dataPlatform: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'dataPlatform')),
  },
  Container: {
    ...commonFields,
    relationships: graphFields.relationships,
    platform: containerPlatform,
    properties: fromAspect<any>('containerProperties', (v, ref) => ({
      name: v.name,
      description: v.description ?? null,
      customProperties: customProperties(v.customProperties, ref.urn),
      externalUrl: v.externalUrl ?? null,
      qualifiedName: v.qualifiedName ?? null,
    })),
    editableProperties: editableDescription('editableContainerProperties'),
  },
  DataPlatform: {
    type: commonFields.type,
    relationships: graphFields.relationships,
    name: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).platformName,
    properties: fromAspect('dataPlatformInfo'),
    displayName: fromAspect<{ displayName?: string }>('dataPlatformInfo', (v) => v.displayName ?? null),
  },
};
