/**
 * `npm run gen:avro`: writes schemas/avro/MetadataChangeEvent.avsc from the model, the
 * reference's union order (mce-union-order.yaml) and the envelope types of
 * MetadataChangeProposal.avsc. Lists the union members the model does not define yet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import { loadModel } from '@cairn/core';
import { defaultAvroDir, EVENT_SCHEMA_FILES, readAvroSchemaFile } from './event-schemas';
import { buildMceSchema, envelopeTypesOf, readMceUnionOrder } from './mce-schema';
import type { AvroComplexSchema } from './model-to-avro';

function main(): number {
  const dir = process.argv[2] ?? defaultAvroDir();
  const model = loadModel(undefined, { strict: false });
  const order = readMceUnionOrder(join(dir, 'mce-union-order.yaml'));
  const envelope = envelopeTypesOf(readAvroSchemaFile(join(dir, EVENT_SCHEMA_FILES.mcp)) as AvroComplexSchema);
  const { schema, missing } = buildMceSchema(model, order, envelope);
  // Parsing checks names, references and defaults before anything is written.
  Type.forSchema(schema as Parameters<typeof Type.forSchema>[0]);
  const file = join(dir, EVENT_SCHEMA_FILES.mce);
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  for (const m of missing) console.log(`missing: ${m}`);
  const snapshots = (schema.fields as { name: string; type: unknown[] }[]).find((f) => f.name === 'proposedSnapshot')?.type.length;
  console.log(`wrote ${file}: ${snapshots} of ${order.snapshots.length} snapshots; ${missing.length} reference members missing from the model`);
  return 0;
}

process.exitCode = main();
