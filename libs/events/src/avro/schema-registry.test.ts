import { Type } from 'avsc';
import type { MetadataChangeProposal } from '../types';
import { TOPICS, valueSubject } from '../topics';
import { eventCodecs } from './codecs';
import { createEventSchemaRegistry } from './event-registry';
import { FramedCodec } from './framed-codec';
import { INVALID_SCHEMA_ERROR_CODE, SchemaRegistryCore, SchemaRegistryError } from './schema-registry';
import { frame, WireFormatError } from './wire-format';

const point = { type: 'record', name: 'Point', namespace: 'test', fields: [{ name: 'x', type: 'int' }] };
const point3d = { ...point, fields: [...point.fields, { name: 'z', type: 'int', default: 0 }] };

describe('SchemaRegistryCore', () => {
  it('numbers the versions of a subject and the schemas of the registry', () => {
    const registry = new SchemaRegistryCore();
    expect(registry.register('points-value', point)).toEqual({ subject: 'points-value', version: 1, id: 1, schema: JSON.stringify(point) });
    expect(registry.register('points-value', point3d)).toMatchObject({ version: 2, id: 2 });
    expect(registry.versions('points-value')).toEqual([1, 2]);
    expect(registry.latest('points-value')).toMatchObject({ version: 2, id: 2 });
    expect(registry.version('points-value', 1)).toMatchObject({ id: 1 });
    expect(registry.version('points-value', 3)).toBeUndefined();
    expect(registry.latest('lines-value')).toBeUndefined();
    expect(registry.subjects()).toEqual(['points-value']);
  });

  it('gives an identical schema its existing id and version', () => {
    const registry = new SchemaRegistryCore();
    registry.register('points-value', point);
    const sameWrittenDifferently = `{"namespace":"test","name":"Point","doc":"a point","type":"record","fields":[{"type":"int","name":"x"}]}`;
    expect(registry.register('points-value', sameWrittenDifferently)).toMatchObject({ version: 1, id: 1 });
    expect(registry.register('other-value', point)).toMatchObject({ subject: 'other-value', version: 1, id: 1 });
    expect(registry.versions('points-value')).toEqual([1]);
  });

  it('tells a different default from the same schema', () => {
    const registry = new SchemaRegistryCore();
    registry.register('points-value', point3d);
    const otherDefault = { ...point, fields: [...point.fields, { name: 'z', type: 'int', default: 1 }] };
    expect(registry.register('points-value', otherDefault).id).toBe(2);
  });

  it('looks schemas up by subject and by id', () => {
    const registry = new SchemaRegistryCore();
    registry.register('points-value', point);
    expect(registry.lookup('points-value', point)).toMatchObject({ version: 1, id: 1 });
    expect(registry.lookup('points-value', point3d)).toBeUndefined();
    expect(registry.lookup('other-value', point)).toBeUndefined();
    expect(registry.schemaById(1)).toBe(JSON.stringify(point));
    expect(registry.typeById(1)?.equals(Type.forSchema(point as Parameters<typeof Type.forSchema>[0]))).toBe(true);
    expect(registry.schemaById(2)).toBeUndefined();
  });

  it('rejects a schema that does not parse, with Confluent error code 42201', () => {
    const registry = new SchemaRegistryCore();
    for (const bad of ['{"type": "record"', { type: 'record', name: 'NoFields' }]) {
      try {
        registry.register('bad-value', bad);
        throw new Error('registered');
      } catch (err) {
        expect(err).toBeInstanceOf(SchemaRegistryError);
        expect((err as SchemaRegistryError).errorCode).toBe(INVALID_SCHEMA_ERROR_CODE);
      }
    }
    expect(registry.subjects()).toEqual([]);
  });
});

describe('createEventSchemaRegistry', () => {
  it('holds the value schema of each event topic', () => {
    const registry = createEventSchemaRegistry();
    const id = (topic: string) => registry.latest(valueSubject(topic))?.id;
    expect(registry.subjects().sort()).toEqual(
      [
        'FailedMetadataChangeProposal_v1-value',
        'MetadataChangeEvent_v4-value',
        'MetadataChangeLog_Timeseries_v1-value',
        'MetadataChangeLog_Versioned_v1-value',
        'MetadataChangeProposal_v1-value',
        'PlatformEvent_v1-value',
      ].sort(),
    );
    expect(id(TOPICS.metadataChangeLogVersioned)).toBe(id(TOPICS.metadataChangeLogTimeseries));
    expect(new Set(registry.subjects().map((s) => registry.latest(s)?.id)).size).toBe(5);
    expect(registry.typeById(id(TOPICS.metadataChangeProposal) ?? 0)?.name).toBe('com.linkedin.pegasus2avro.mxe.MetadataChangeProposal');
    expect(registry.typeById(id(TOPICS.metadataChangeEvent) ?? 0)?.name).toBe('com.linkedin.pegasus2avro.mxe.MetadataChangeEvent');
  });
});

describe('FramedCodec', () => {
  const mcp: MetadataChangeProposal = { entityType: 'dataset', entityUrn: 'urn:li:dataset:x', changeType: 'UPSERT' };

  it('frames with the id of the pre-registered schema', () => {
    const registry = createEventSchemaRegistry();
    const framed = new FramedCodec(eventCodecs().mcp, registry, valueSubject(TOPICS.metadataChangeProposal));
    expect(framed.schemaId).toBe(registry.latest(valueSubject(TOPICS.metadataChangeProposal))?.id);
    const message = framed.encode(mcp);
    expect([...message.subarray(0, 5)]).toEqual([0, 0, 0, 0, framed.schemaId]);
    expect(framed.decode(message)).toStrictEqual(mcp);
  });

  it('writes the header and the payload in one buffer, as framing the encoded value would', () => {
    const codecs = eventCodecs();
    const framed = new FramedCodec(codecs.mcp, createEventSchemaRegistry(), valueSubject(TOPICS.metadataChangeProposal));
    for (const value of [mcp, { ...mcp, aspectName: 'schemaMetadata', aspect: { value: JSON.stringify({ t: 'x'.repeat(50_000) }), contentType: 'application/json' } }]) {
      expect(framed.encode(value)).toEqual(frame(framed.schemaId, codecs.mcp.encode(value)));
    }
  });

  it('decodes a value written with another registered schema of the subject', () => {
    const registry = createEventSchemaRegistry();
    const subject = valueSubject(TOPICS.metadataChangeProposal);
    const framed = new FramedCodec(eventCodecs().mcp, registry, subject);
    // A writer that knows a seventh change type, as later releases of the reference do.
    const writerSchema = JSON.parse(registry.schemaById(framed.schemaId) ?? '');
    writerSchema.fields.find((f: { name: string }) => f.name === 'changeType').type.symbols.push('CREATE_ENTITY');
    const { id, version } = registry.register(subject, writerSchema);
    expect(version).toBe(2);
    const writer = registry.typeById(id) as Type;
    const write = (changeType: string) =>
      frame(id, writer.toBuffer({ ...mcp, changeType, auditHeader: null, entityKeyAspect: null, aspectName: null, aspect: null, systemMetadata: null }));
    expect(framed.decode(write('UPSERT'))).toStrictEqual(mcp);
    expect(() => framed.decode(write('CREATE_ENTITY'))).toThrow(/CREATE_ENTITY/);
  });

  it('rejects a schema id the registry does not know', () => {
    const framed = new FramedCodec(eventCodecs().mcp, createEventSchemaRegistry(), valueSubject(TOPICS.metadataChangeProposal));
    expect(() => framed.decode(frame(999, Buffer.alloc(1)))).toThrow(WireFormatError);
  });
});
