import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type, type types } from 'avsc';
import { CHANGE_TYPES, type FailedMetadataChangeProposal, type MetadataChangeLog, type MetadataChangeProposal, type PlatformEvent } from '../types';
import { long, str, bytes } from './avro-binary.fixture';
import { EventCodecError, eventCodecs } from './codecs';
import { defaultAvroDir, eventSchemas } from './event-schemas';

const codecs = eventCodecs();

const fieldNames = (type: Type): string[] => (type as types.RecordType).fields.map((f) => f.name);
/** The record of an optional (["null", record]) field. */
const optionalRecord = (type: Type, field: string): Type => ((type as types.RecordType).field(field).type as types.UnwrappedUnionType).types[1];

const statusValue = '{"removed":false}';

const fullMcp: MetadataChangeProposal = {
  auditHeader: {
    time: 1690000000000,
    server: 'gms-1',
    appName: 'cairn',
    messageId: Buffer.alloc(16, 7),
    auditVersion: 1,
  },
  entityType: 'dataset',
  entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
  entityKeyAspect: { value: '{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}', contentType: 'application/json' },
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: { value: statusValue, contentType: 'application/json' },
  systemMetadata: { lastObserved: 1690000000001, runId: 'run-1', registryName: 'cairn', registryVersion: '0.1.0', properties: { a: 'b' } },
};

describe('event schemas', () => {
  const schemas = eventSchemas();
  const mcpFields = ['auditHeader', 'entityType', 'entityUrn', 'entityKeyAspect', 'changeType', 'aspectName', 'aspect', 'systemMetadata'];

  it('declare the fields in the reference order', () => {
    expect(fieldNames(schemas.mcp)).toEqual(mcpFields);
    expect(fieldNames(schemas.mcl)).toEqual([...mcpFields, 'previousAspectValue', 'previousSystemMetadata', 'created']);
    expect(fieldNames(schemas.failedMcp)).toEqual(['auditHeader', 'metadataChangeProposal', 'error']);
    expect(fieldNames(optionalRecord(schemas.mcp, 'systemMetadata'))).toEqual(['lastObserved', 'runId', 'registryName', 'registryVersion', 'properties']);
    expect(fieldNames(optionalRecord(schemas.mcp, 'aspect'))).toEqual(['value', 'contentType']);
    expect(fieldNames(optionalRecord(schemas.mcl, 'created'))).toEqual(['time', 'actor', 'impersonator', 'message']);
    expect(fieldNames(schemas.mce)).toEqual(['auditHeader', 'proposedSnapshot', 'proposedDelta', 'systemMetadata']);
  });

  it('use the reference names', () => {
    expect(schemas.mcp.name).toBe('com.linkedin.pegasus2avro.mxe.MetadataChangeProposal');
    expect(schemas.mcl.name).toBe('com.linkedin.pegasus2avro.mxe.MetadataChangeLog');
    expect(schemas.failedMcp.name).toBe('com.linkedin.pegasus2avro.mxe.FailedMetadataChangeProposal');
    expect(schemas.mce.name).toBe('com.linkedin.pegasus2avro.mxe.MetadataChangeEvent');
    const changeType = (schemas.mcp as types.RecordType).field('changeType').type as types.EnumType;
    expect(changeType.name).toBe('com.linkedin.pegasus2avro.events.metadata.ChangeType');
    expect(changeType.symbols).toEqual(['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE']);
    expect(changeType.symbols).toEqual(CHANGE_TYPES);
  });
});

describe('MetadataChangeProposal codec', () => {
  it('writes the bytes of the reference field order', () => {
    const mcp: MetadataChangeProposal = {
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:x',
      changeType: 'DELETE',
      aspectName: 'status',
      aspect: { value: statusValue, contentType: 'application/json' },
      systemMetadata: { lastObserved: 1690000000000, runId: 'run-1', properties: { k: 'v' } },
    };
    const expected = Buffer.from([
      ...long(0), // auditHeader: null
      ...str('dataset'), // entityType
      ...long(1), ...str('urn:li:dataset:x'), // entityUrn
      ...long(0), // entityKeyAspect: null
      ...long(3), // changeType: DELETE
      ...long(1), ...str('status'), // aspectName
      ...long(1), ...bytes(Buffer.from(statusValue)), ...str('application/json'), // aspect
      ...long(1), // systemMetadata
      ...long(0), ...long(1690000000000), // lastObserved: ["long", "null"]
      ...long(0), ...str('run-1'), // runId: ["string", "null"]
      ...long(0), // registryName: null
      ...long(0), // registryVersion: null
      ...long(1), ...long(1), ...str('k'), ...str('v'), ...long(0), // properties: one map block
    ]);
    expect(codecs.mcp.encode(mcp)).toEqual(expected);
    expect(codecs.mcp.decode(expected)).toStrictEqual(mcp);
  });

  it('round-trips every field', () => {
    const decoded = codecs.mcp.decode(codecs.mcp.encode(fullMcp));
    expect(decoded).toStrictEqual(fullMcp);
    expect(decoded.aspect?.value).toBe(statusValue);
  });

  it('leaves absent optional fields absent', () => {
    const minimal: MetadataChangeProposal = { entityType: 'dataset', changeType: 'UPSERT' };
    const decoded = codecs.mcp.decode(codecs.mcp.encode(minimal));
    expect(decoded).toStrictEqual(minimal);
    expect(Object.keys(decoded)).toEqual(['entityType', 'changeType']);
  });

  it('says which field is invalid', () => {
    const bad = { entityType: 'dataset', changeType: 'MERGE' } as unknown as MetadataChangeProposal;
    expect(() => codecs.mcp.encode(bad)).toThrow(EventCodecError);
    expect(() => codecs.mcp.encode(bad)).toThrow(/changeType: "MERGE" is not a valid/);
    expect(() => codecs.mcp.encode({ changeType: 'UPSERT' } as MetadataChangeProposal)).toThrow(/entityType: undefined/);
  });

  it('rejects a truncated payload', () => {
    const payload = codecs.mcp.encode(fullMcp);
    expect(() => codecs.mcp.decode(payload.subarray(0, payload.length - 3))).toThrow(EventCodecError);
  });

  it('reads a payload written with a newer reference schema', () => {
    // Later releases of the reference add lastRunId and pipelineName to SystemMetadata.
    const schema = JSON.parse(readFileSync(join(defaultAvroDir(), 'MetadataChangeProposal.avsc'), 'utf8'));
    const systemMetadata = schema.fields.find((f: { name: string }) => f.name === 'systemMetadata').type[1];
    systemMetadata.fields.splice(
      2,
      0,
      { name: 'lastRunId', type: ['string', 'null'], default: 'no-run-id-provided' },
      { name: 'pipelineName', type: ['null', 'string'], default: null },
    );
    const writer = Type.forSchema(schema);
    const payload = writer.toBuffer({
      auditHeader: null,
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:x',
      entityKeyAspect: null,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: Buffer.from(statusValue), contentType: 'application/json' },
      systemMetadata: { lastObserved: 5, runId: 'r', lastRunId: 'r0', pipelineName: 'p', registryName: null, registryVersion: null, properties: null },
    });
    expect(codecs.mcp.decode(payload, writer)).toEqual({
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:x',
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: statusValue, contentType: 'application/json' },
      systemMetadata: { lastObserved: 5, runId: 'r' },
    });
  });
});

describe('MetadataChangeLog codec', () => {
  it('round-trips the log fields after the proposal fields', () => {
    const mcl: MetadataChangeLog = {
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:x',
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: '{"removed":true}', contentType: 'application/json' },
      systemMetadata: { lastObserved: 2, runId: 'r2' },
      previousAspectValue: { value: statusValue, contentType: 'application/json' },
      previousSystemMetadata: { lastObserved: 1, runId: 'r1' },
      created: { time: 1690000000000, actor: 'urn:li:corpuser:datahub' },
    };
    expect(codecs.mcl.decode(codecs.mcl.encode(mcl))).toStrictEqual(mcl);
  });

  it('encodes values of any size into payloads of their own, whatever it encodes next', () => {
    const sized = (characters: number): MetadataChangeLog => ({
      entityType: 'dataset',
      entityUrn: `urn:li:dataset:${characters}`,
      changeType: 'UPSERT',
      aspectName: 'schemaMetadata',
      aspect: { value: JSON.stringify({ text: 'é'.repeat(characters) }), contentType: 'application/json' },
    });
    // Small, then past the first buffer, past what is kept, and small again after each.
    const values = [100, 40_000, 10, 3_000_000, 20, 40_000].map(sized);
    const payloads = values.map((v) => codecs.mcl.encode(v));
    expect(payloads.map((p) => codecs.mcl.decode(p))).toStrictEqual(values);
  });
});

describe('codecs of plain values', () => {
  // They write and read through a twin of the schema whose bytes are strings: the payloads must be the schema's own.
  it('write payloads of their declared schema, its bytes fields holding the UTF-8 of the text', () => {
    const text = '{"description":"naïve – ünïcode ✓"}';
    const mcl: MetadataChangeLog = { entityType: 'dataset', changeType: 'UPSERT', aspect: { value: text, contentType: 'application/json' } };
    const read = codecs.mcl.type.fromBuffer(codecs.mcl.encode(mcl)) as { aspect: { value: Buffer } };
    expect(read.aspect.value).toEqual(Buffer.from(text, 'utf8'));
    const event: PlatformEvent = { header: { timestampMillis: 1 }, name: 'entityChangeEvent', payload: { value: text, contentType: 'application/json' } };
    const payload = (codecs.platformEvent.type.fromBuffer(codecs.platformEvent.encode(event)) as { payload: { value: Buffer } }).payload;
    expect(payload.value).toEqual(Buffer.from(text, 'utf8'));
  });

  it('read payloads their declared schema wrote', () => {
    const text = '{"removed":true,"note":"é"}';
    const written = codecs.mcp.type.toBuffer({ ...codecs.mcp.type.fromBuffer(codecs.mcp.encode(fullMcp)) as object, aspect: { value: Buffer.from(text), contentType: 'application/json' } });
    expect(codecs.mcp.decode(written).aspect).toEqual({ value: text, contentType: 'application/json' });
  });
});

describe('FailedMetadataChangeProposal codec', () => {
  it('round-trips the failed proposal and its error', () => {
    const failed: FailedMetadataChangeProposal = { metadataChangeProposal: { entityType: 'chart', changeType: 'PATCH' }, error: 'Unknown aspect foo' };
    expect(codecs.failedMcp.decode(codecs.failedMcp.encode(failed))).toStrictEqual(failed);
  });
});

describe('PlatformEvent codec', () => {
  it('round-trips header, name and payload text', () => {
    const event: PlatformEvent = {
      header: { timestampMillis: 1690000000000 },
      name: 'entityChangeEvent',
      payload: { value: '{"entityUrn":"urn:li:dataset:x"}', contentType: 'application/json' },
    };
    expect(codecs.platformEvent.decode(codecs.platformEvent.encode(event))).toStrictEqual(event);
  });
});
