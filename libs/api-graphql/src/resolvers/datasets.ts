/** The Dataset type and the `dataset` query. */
import type { GraphqlContext } from '../context';
import { existing, keyOf, refOf, requireRef, type EntityRef } from '../refs';
import { commonFields, customProperties, editableDescription, fromAspect } from './aspect-fields';
import { graphFields } from './relationships';
import { editableSchemaMetadata, schemaMetadata } from './schema-fields';
import { datasetProfiles, operations, usageStats } from './timeseries-fields';

function properties(value: any, ref: EntityRef, ctx: GraphqlContext) {
  const key = keyOf(ctx, ref);
  return {
    name: value.name ?? key.name,
    qualifiedName: value.qualifiedName ?? null,
    origin: key.origin,
    description: value.description ?? null,
    customProperties: customProperties(value.customProperties, ref.urn),
    externalUrl: value.externalUrl ?? null,
    created: value.created?.time ?? null,
    lastModified: value.lastModified?.time ?? null,
  };
}

/** `schemaMetadata(version)`: the latest, or an older version from the store. */
async function versionedSchemaMetadata(ref: EntityRef, args: { version?: number | null }, ctx: GraphqlContext) {
  if (!args.version) return fromAspect('schemaMetadata', (v, r, c) => schemaMetadata(v, r, c))(ref, args, ctx);
  const row = await ctx.catalog.store.getVersion(ref.urn, 'schemaMetadata', args.version);
  return row ? schemaMetadata(JSON.parse(row.metadata), ref, ctx, args.version) : null;
}

export const datasetResolvers = {
  Query: {
    dataset: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'dataset')),
  },
  Dataset: {
    ...commonFields,
    ...graphFields,
    platform: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => refOf(ctx, keyOf(ctx, ref).platform),
    name: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).name,
    origin: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).origin,
    properties: fromAspect('datasetProperties', properties),
    editableProperties: editableDescription('editableDatasetProperties'),
    schemaMetadata: versionedSchemaMetadata,
    editableSchemaMetadata: fromAspect('editableSchemaMetadata', editableSchemaMetadata),
    datasetProfiles,
    operations,
    usageStats,
  },
};
