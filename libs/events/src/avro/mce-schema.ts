/**
 * The legacy MetadataChangeEvent schema, built from the model: one snapshot record per entity
 * snapshot of the reference, each a union of its aspect records, in the reference's member
 * order (schemas/avro/mce-union-order.yaml) since Avro binary names a member by position.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { toAvroName, type AspectSpec, type LoadedModel } from '@cairn/core';
import { AvroSchemaBuilder, AvroTranslationError, splitName, type AvroComplexSchema, type AvroField, type AvroSchema } from './model-to-avro';

export interface MceUnionOrder {
  readonly snapshots: readonly { readonly snapshot: string; readonly aspects: readonly string[] }[];
}

export function readMceUnionOrder(file: string): MceUnionOrder {
  const doc = parse(readFileSync(file, 'utf8')) as MceUnionOrder;
  if (!Array.isArray(doc?.snapshots)) throw new AvroTranslationError(`${file}: expected a list of snapshots`);
  return doc;
}

/** The envelope types the MCE shares with the other events, taken from MetadataChangeProposal.avsc. */
export interface MceEnvelopeTypes {
  readonly auditHeader: AvroSchema;
  readonly systemMetadata: AvroSchema;
}

/** The non-null member of the optional field `name` of a record schema. */
function optionalFieldType(record: AvroComplexSchema, name: string): AvroSchema {
  const field = (record.fields as AvroField[]).find((f) => f.name === name);
  const members = Array.isArray(field?.type) ? field.type.filter((m) => m !== 'null') : [];
  if (members.length !== 1) throw new AvroTranslationError(`${String(record.name)}.${name} is not an optional field`);
  return members[0];
}

export function envelopeTypesOf(mcpSchema: AvroComplexSchema): MceEnvelopeTypes {
  return { auditHeader: optionalFieldType(mcpSchema, 'auditHeader'), systemMetadata: optionalFieldType(mcpSchema, 'systemMetadata') };
}

export interface MceSchema {
  readonly schema: AvroComplexSchema;
  /** Union members of the reference left out because the model does not define them yet. */
  readonly missing: readonly string[];
}

export function buildMceSchema(model: LoadedModel, order: MceUnionOrder, envelope: MceEnvelopeTypes): MceSchema {
  const aspectsByRecord = new Map<string, AspectSpec>([...model.aspects.values()].map((a) => [a.record, a]));
  const snapshotsInRegistry = new Set([...model.entities.values()].map((e) => e.snapshot));
  const builder = new AvroSchemaBuilder();
  const missing: string[] = [];
  const snapshots: AvroSchema[] = [];
  for (const { snapshot, aspects } of order.snapshots) {
    if (!snapshotsInRegistry.has(snapshot)) missing.push(`${snapshot}: no entity of entity-registry.yaml names this snapshot`);
    const members: AvroSchema[] = [];
    for (const record of aspects) {
      const spec = aspectsByRecord.get(record);
      if (spec) members.push(builder.schemaOf(spec.type));
      else missing.push(`${snapshot}: aspect record ${record} is not in the model`);
    }
    if (members.length === 0) {
      missing.push(`${snapshot}: left out, none of its aspects is in the model`);
      continue;
    }
    const { name, namespace } = splitName(toAvroName(snapshot));
    snapshots.push({
      type: 'record',
      name,
      namespace,
      fields: [
        { name: 'urn', type: 'string' },
        { name: 'aspects', type: { type: 'array', items: members } },
      ],
    });
  }
  const schema: AvroComplexSchema = {
    type: 'record',
    name: 'MetadataChangeEvent',
    namespace: 'com.linkedin.pegasus2avro.mxe',
    fields: [
      { name: 'auditHeader', type: ['null', envelope.auditHeader], default: null },
      { name: 'proposedSnapshot', type: snapshots },
      // The reference never defined a delta: its schema is a union of null alone.
      { name: 'proposedDelta', type: ['null'], default: null },
      { name: 'systemMetadata', type: ['null', envelope.systemMetadata], default: null },
    ],
  };
  return { schema, missing };
}
