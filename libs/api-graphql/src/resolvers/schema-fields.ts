/** Schema metadata: fields, their types and platform schemas, and the editable overlay. */
import type { GraphqlContext } from '../context';
import { globalTags, glossaryTerms } from './aspect-fields';
import type { EntityRef } from '../refs';

/** Record name suffix of a schema field type → SchemaFieldDataType. */
const FIELD_TYPES: Record<string, string> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
};

const shortName = (record: string) => record.slice(record.lastIndexOf('.') + 1);

function fieldType(type: { type?: Record<string, unknown> } | undefined): string {
  const member = Object.keys(type?.type ?? {})[0];
  return (member && FIELD_TYPES[shortName(member)]) ?? 'NULL';
}

/** Platform schemas are a union of records; the reference shows each as a table or key-value schema. */
function platformSchema(union: Record<string, Record<string, string>> | undefined) {
  const [record, value] = Object.entries(union ?? {})[0] ?? [];
  if (!record || !value) return null;
  if (shortName(record) === 'KeyValueSchema') return { __typename: 'KeyValueSchema', keySchema: value.keySchema ?? '', valueSchema: value.valueSchema ?? '' };
  const schema = value.documentSchema ?? value.tableSchema ?? value.rawSchema ?? value.schema ?? '';
  return { __typename: 'TableSchema', schema };
}

export interface SchemaFieldValue {
  fieldPath: string;
  type?: { type?: Record<string, unknown> };
  globalTags?: { tags?: { tag: string }[] };
  glossaryTerms?: { terms?: { urn: string }[] };
  [k: string]: unknown;
}

export function schemaMetadata(value: any, ref: EntityRef, ctx: GraphqlContext, aspectVersion = 0) {
  return {
    aspectVersion,
    datasetUrn: ref.urn,
    name: value.schemaName,
    platformUrn: value.platform,
    version: value.version ?? 0,
    cluster: value.cluster ?? null,
    hash: value.hash ?? '',
    platformSchema: platformSchema(value.platformSchema),
    primaryKeys: value.primaryKeys ?? null,
    createdAt: value.created?.time ?? null,
    fields: ((value.fields ?? []) as SchemaFieldValue[]).map((f) => ({
      ...f,
      nullable: f.nullable ?? false,
      recursive: f.recursive ?? false,
      description: f.description ?? null,
      type: fieldType(f.type),
      globalTags: globalTags(f.globalTags, ref.urn, ctx),
      tags: globalTags(f.globalTags, ref.urn, ctx),
      glossaryTerms: glossaryTerms(f.glossaryTerms, ref.urn, ctx),
    })),
  };
}

export function editableSchemaMetadata(value: any, ref: EntityRef, ctx: GraphqlContext) {
  return {
    editableSchemaFieldInfo: ((value.editableSchemaFieldInfo ?? []) as SchemaFieldValue[]).map((f) => ({
      fieldPath: f.fieldPath,
      description: f.description ?? null,
      globalTags: globalTags(f.globalTags, ref.urn, ctx),
      tags: globalTags(f.globalTags, ref.urn, ctx),
      glossaryTerms: glossaryTerms(f.glossaryTerms, ref.urn, ctx),
    })),
  };
}

export const platformSchemaResolvers = {
  PlatformSchema: { __resolveType: (v: { __typename: string }) => v.__typename },
};
