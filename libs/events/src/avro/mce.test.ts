import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { types } from 'avsc';
import { defaultRegistry, loadModel, readSnapshot, validateValue } from '@cairn/core';
import type { AvroJsonSnapshot, MetadataChangeEvent } from '../types';
import { toStrictAvroJson } from './avro-json';
import { long, str } from './avro-binary.fixture';
import { eventCodecs } from './codecs';
import { defaultAvroDir, EVENT_SCHEMA_FILES, eventSchemas, readAvroSchemaFile } from './event-schemas';
import { buildMceSchema, envelopeTypesOf, readMceUnionOrder } from './mce-schema';
import type { AvroComplexSchema } from './model-to-avro';

const samplesFile = join(__dirname, '../../../../../shared/data/reference-samples/bootstrap_mce.json');
const snapshots: AvroJsonSnapshot[] = (JSON.parse(readFileSync(samplesFile, 'utf8')) as { proposedSnapshot?: AvroJsonSnapshot }[])
  .flatMap((r) => (r.proposedSnapshot ? [r.proposedSnapshot] : []));
const codec = eventCodecs().mce;
const snapshotType = (eventSchemas().mce as types.RecordType).field('proposedSnapshot').type;

describe('MetadataChangeEvent.avsc', () => {
  it('is what `npm run gen:avro` writes from the current model', () => {
    const dir = defaultAvroDir();
    const { schema } = buildMceSchema(
      loadModel(undefined, { strict: false }),
      readMceUnionOrder(join(dir, 'mce-union-order.yaml')),
      envelopeTypesOf(readAvroSchemaFile(join(dir, EVENT_SCHEMA_FILES.mcp)) as AvroComplexSchema),
    );
    expect(readAvroSchemaFile(join(dir, EVENT_SCHEMA_FILES.mce))).toEqual(schema);
  });

  it('orders snapshots and their aspects as the reference does', () => {
    const mce: MetadataChangeEvent = {
      proposedSnapshot: {
        'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
          urn: 'urn:li:dataset:x',
          aspects: [{ 'com.linkedin.pegasus2avro.common.Status': { removed: true } }],
        },
      },
    };
    expect(codec.encode(mce)).toEqual(
      Buffer.from([
        ...long(0), // auditHeader: null
        ...long(6), // DatasetSnapshot, the 7th snapshot
        ...str('urn:li:dataset:x'),
        ...long(1), // one array block of one aspect
        ...long(8), // Status, the 9th aspect of a dataset snapshot
        1, // removed: true
        ...long(0), // end of the aspects
        ...long(0), // proposedDelta: null
        ...long(0), // systemMetadata: null
      ]),
    );
  });
});

describe('MetadataChangeEvent codec', () => {
  it('has the reference samples to read', () => {
    expect(snapshots.length).toBeGreaterThan(80);
  });

  it.each(snapshots.map((s) => [Object.keys(s)[0].split('.').pop(), Object.values(s)[0].urn, s] as const))(
    'round-trips %s %s from bootstrap_mce.json',
    (_name, urn, snapshot) => {
      const decoded = codec.decode(codec.encode({ proposedSnapshot: snapshot }));
      expect(decoded.proposedSnapshot).toMatchObject(toStrictAvroJson(snapshotType, snapshot) as AvroJsonSnapshot);
      const read = readSnapshot(defaultRegistry(), decoded.proposedSnapshot);
      expect(read.urn).toBe(urn);
      for (const aspect of read.aspects) expect(validateValue(aspect.value, aspect.spec.type).errors).toEqual([]);
    },
  );

  it('gives strict Avro-JSON back and keeps the envelope', () => {
    const snapshot = snapshots.find((s) => Object.keys(s)[0].endsWith('CorpUserSnapshot')) as AvroJsonSnapshot;
    const mce: MetadataChangeEvent = {
      auditHeader: { time: 1, server: 's', appName: 'a', messageId: Buffer.alloc(16) },
      proposedSnapshot: snapshot,
      systemMetadata: { lastObserved: 1690000000000, runId: 'bootstrap' },
    };
    const decoded = codec.decode(codec.encode(mce));
    expect(decoded.auditHeader).toEqual(mce.auditHeader);
    expect(decoded.systemMetadata).toEqual(mce.systemMetadata);
    const [user] = Object.values(decoded.proposedSnapshot);
    // The sample leaves the optional email bare; strict Avro-JSON wraps it.
    expect(user.aspects[0]).toMatchObject({ 'com.linkedin.pegasus2avro.identity.CorpUserInfo': { email: { string: 'datahub@linkedin.com' } } });
  });

  it('names a snapshot or aspect record the schema does not have', () => {
    const unknownSnapshot = { proposedSnapshot: { 'com.linkedin.pegasus2avro.metadata.snapshot.NoSuchSnapshot': { urn: 'urn:li:x:y', aspects: [] } } };
    expect(() => codec.encode(unknownSnapshot)).toThrow(/must hold one snapshot of the schema, got com.linkedin.pegasus2avro.metadata.snapshot.NoSuchSnapshot/);
    const tagAspectOnChart = {
      proposedSnapshot: {
        'com.linkedin.pegasus2avro.metadata.snapshot.ChartSnapshot': {
          urn: 'urn:li:chart:(looker,1)',
          aspects: [{ 'com.linkedin.pegasus2avro.tag.TagProperties': { name: 't' } }],
        },
      },
    };
    expect(() => codec.encode(tagAspectOnChart)).toThrow(/aspect #0: com.linkedin.pegasus2avro.tag.TagProperties is not an aspect record of .*ChartSnapshot/);
  });

  it('keeps error messages short', () => {
    const badValue = {
      proposedSnapshot: { 'com.linkedin.pegasus2avro.metadata.snapshot.ChartSnapshot': { urn: 5, aspects: [] } },
    } as unknown as MetadataChangeEvent;
    const message = (() => {
      try {
        codec.encode(badValue);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(message).toMatch(/^Cannot encode/);
    expect(message.length).toBeLessThan(600);
  });
});
