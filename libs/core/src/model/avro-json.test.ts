import { fromAvroJson, toAvroName, toPegasusName } from './avro-json';
import { defaultRegistry } from './registry';
import { validateValue } from './validate';
import type { RecordType, TypeExpr } from './types';

const registry = defaultRegistry();
const aspectType = (name: string): RecordType => {
  const spec = registry.aspect(name);
  if (!spec) throw new Error(`no aspect ${name}`);
  return spec.type;
};

/** Converts, then checks the result is valid Rest.li JSON for the type. */
function convert(value: unknown, type: TypeExpr): unknown {
  const out = fromAvroJson(value, type);
  expect(validateValue(out, type).errors).toEqual([]);
  return out;
}

describe('record names', () => {
  it('maps between Avro and Rest.li names', () => {
    expect(toPegasusName('com.linkedin.pegasus2avro.dataset.DatasetProperties')).toBe('com.linkedin.dataset.DatasetProperties');
    expect(toPegasusName('com.linkedin.dataset.DatasetProperties')).toBe('com.linkedin.dataset.DatasetProperties');
    expect(toAvroName('com.linkedin.dataset.DatasetProperties')).toBe('com.linkedin.pegasus2avro.dataset.DatasetProperties');
    expect(toAvroName('com.linkedin.pegasus2avro.dataset.DatasetProperties')).toBe('com.linkedin.pegasus2avro.dataset.DatasetProperties');
    expect(toAvroName('org.other.Thing')).toBe('org.other.Thing');
  });
});

describe('fromAvroJson', () => {
  it('unwraps optional primitives and drops null optionals', () => {
    const input = {
      customProperties: { k: 'v' },
      externalUrl: null,
      name: { string: 'orders' },
      description: { string: 'all the orders' },
      qualifiedName: null,
      uri: null,
      created: null,
      lastModified: null,
      tags: [],
    };
    expect(convert(input, aspectType('datasetProperties'))).toEqual({ customProperties: { k: 'v' }, name: 'orders', description: 'all the orders', tags: [] });
  });

  it('unwraps optional records named in Avro or Rest.li form', () => {
    const avro = { created: { 'com.linkedin.pegasus2avro.common.TimeStamp': { time: 5, actor: null } } };
    expect(convert(avro, aspectType('datasetProperties'))).toEqual({ created: { time: 5 } });
    const restli = { created: { 'com.linkedin.common.TimeStamp': { time: 5 } } };
    expect(convert(restli, aspectType('datasetProperties'))).toEqual({ created: { time: 5 } });
  });

  it('unwraps optional longs and arrays', () => {
    const input = {
      timestampMillis: 1_600_000_000_000,
      eventGranularity: null,
      partitionSpec: null,
      messageId: null,
      rowCount: { long: 10 },
      columnCount: { long: 2 },
      fieldProfiles: { array: [{ fieldPath: 'a', uniqueCount: { long: 3 }, nullCount: null, sampleValues: { array: ['x'] } }] },
      sizeInBytes: null,
    };
    expect(convert(input, aspectType('datasetProfile'))).toEqual({
      timestampMillis: 1_600_000_000_000,
      rowCount: 10,
      columnCount: 2,
      fieldProfiles: [{ fieldPath: 'a', uniqueCount: 3, sampleValues: ['x'] }],
    });
  });

  it('leaves plain Rest.li JSON unchanged', () => {
    const value = { customProperties: {}, name: 'orders', created: { time: 5 }, tags: ['a'] };
    expect(convert(value, aspectType('datasetProperties'))).toEqual(value);
  });

  it('does not unwrap a required field that happens to look like a wrapper', () => {
    const type: RecordType = { kind: 'record', name: 'com.example.R', fields: [{ name: 'm', type: { kind: 'map', values: { kind: 'primitive', name: 'string' } }, optional: false }] };
    expect(fromAvroJson({ m: { string: 'x' } }, type)).toEqual({ m: { string: 'x' } });
  });

  it('renames union members from Avro to Rest.li names', () => {
    const input = {
      schemaName: 's',
      platform: 'urn:li:dataPlatform:mysql',
      version: 0,
      created: { time: 0, actor: 'urn:li:corpuser:a', impersonator: null, message: null },
      lastModified: { time: 0, actor: 'urn:li:corpuser:a', impersonator: null, message: null },
      deleted: null,
      dataset: null,
      cluster: null,
      hash: '',
      platformSchema: { 'com.linkedin.pegasus2avro.schema.MySqlDDL': { tableSchema: 'CREATE TABLE t' } },
      fields: [
        {
          fieldPath: 'id',
          nullable: false,
          type: { type: { 'com.linkedin.pegasus2avro.schema.NumberType': {} } },
          nativeDataType: 'int',
          recursive: false,
          description: { string: 'the id' },
          globalTags: null,
        },
      ],
      primaryKeys: null,
      foreignKeysSpecs: null,
      foreignKeys: null,
    };
    const out = convert(input, aspectType('schemaMetadata')) as Record<string, any>;
    expect(out.platformSchema).toEqual({ 'com.linkedin.schema.MySqlDDL': { tableSchema: 'CREATE TABLE t' } });
    expect(out.fields[0].type).toEqual({ type: { 'com.linkedin.schema.NumberType': {} } });
    expect(out.fields[0].description).toBe('the id');
    expect(out.created).toEqual({ time: 0, actor: 'urn:li:corpuser:a' });
    expect(out).not.toHaveProperty('deleted');
  });

  it('reads an aliased union written as a record with fieldDiscriminator', () => {
    const cost = aspectType('cost');
    expect(convert({ costType: 'ORG_COST_TYPE', cost: { fieldDiscriminator: 'costCode', costCode: 'sampleCostCode' } }, cost)).toEqual({
      costType: 'ORG_COST_TYPE',
      cost: { costCode: 'sampleCostCode' },
    });
    // The Avro writer's form: every alias present, the unused ones null, the used one wrapped.
    expect(convert({ costType: 'ORG_COST_TYPE', cost: { costId: null, costCode: { string: 'c' }, fieldDiscriminator: 'costCode' } }, cost)).toEqual({
      costType: 'ORG_COST_TYPE',
      cost: { costCode: 'c' },
    });
    expect(convert({ costType: 'ORG_COST_TYPE', cost: { costId: { double: 1.5 }, costCode: null, fieldDiscriminator: 'costId' } }, cost)).toEqual({
      costType: 'ORG_COST_TYPE',
      cost: { costId: 1.5 },
    });
  });

  it('keeps an aliased union already in Rest.li form', () => {
    expect(convert({ costType: 'ORG_COST_TYPE', cost: { costCode: 'c' } }, aspectType('cost'))).toEqual({ costType: 'ORG_COST_TYPE', cost: { costCode: 'c' } });
  });

  it('leaves an unknown discriminator for the validator to report', () => {
    const out = fromAvroJson({ costType: 'ORG_COST_TYPE', cost: { fieldDiscriminator: 'nope', nope: 1 } }, aspectType('cost'));
    expect(validateValue(out, aspectType('cost')).errors.length).toBeGreaterThan(0);
  });

  it('wraps bare union members: enum symbols, strings and numbers', () => {
    const jobInfo = aspectType('dataJobInfo');
    const typeOf = (v: unknown) => (fromAvroJson({ name: 'j', type: v, customProperties: {} }, jobInfo) as Record<string, unknown>).type;
    expect(typeOf('SQL')).toEqual({ 'com.linkedin.datajob.azkaban.AzkabanJobType': 'SQL' });
    expect(typeOf('CUSTOM_THING')).toEqual({ string: 'CUSTOM_THING' });
    expect(typeOf({ string: 'X' })).toEqual({ string: 'X' });
    expect(typeOf({ 'com.linkedin.pegasus2avro.datajob.azkaban.AzkabanJobType': 'PIG' })).toEqual({ 'com.linkedin.datajob.azkaban.AzkabanJobType': 'PIG' });

    const hyper: TypeExpr = {
      kind: 'union',
      aliased: false,
      members: [
        { key: 'string', type: { kind: 'primitive', name: 'string' } },
        { key: 'int', type: { kind: 'primitive', name: 'int' } },
        { key: 'boolean', type: { kind: 'primitive', name: 'boolean' } },
      ],
    };
    expect(fromAvroJson('x', hyper)).toEqual({ string: 'x' });
    expect(fromAvroJson(3, hyper)).toEqual({ int: 3 });
    expect(fromAvroJson(true, hyper)).toEqual({ boolean: true });
  });

  it('wraps a bare URN of a single-member URN union as its string member', () => {
    const chartInfo = registry.aspect('chartInfo')!.type;
    expect(chartInfo.fields.map((f) => f.name)).toContain('inputs');
    const out = fromAvroJson({ title: 't', description: 'd', lastModified: { created: { time: 0, actor: 'urn:li:corpuser:a' }, lastModified: { time: 0, actor: 'urn:li:corpuser:a' } }, inputs: { array: ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)'] } }, chartInfo) as Record<string, unknown>;
    expect(out.inputs).toEqual([{ string: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)' }]);
  });

  it('converts values inside arrays and maps', () => {
    const stamp = registry.model.types.get('com.linkedin.common.TimeStamp') as RecordType;
    const arr: TypeExpr = { kind: 'array', items: stamp };
    const map: TypeExpr = { kind: 'map', values: stamp };
    expect(fromAvroJson([{ time: 1, actor: { string: 'urn:li:corpuser:a' } }, { time: 2, actor: null }], arr)).toEqual([{ time: 1, actor: 'urn:li:corpuser:a' }, { time: 2 }]);
    expect(fromAvroJson({ k: { time: 1, actor: null } }, map)).toEqual({ k: { time: 1 } });
  });

  it('keeps unknown fields for the validator to report', () => {
    expect(fromAvroJson({ name: 'x', surprise: { string: 'y' } }, aspectType('datasetProperties'))).toEqual({ name: 'x', surprise: { string: 'y' } });
  });

  it('passes non-object values of record types through', () => {
    expect(fromAvroJson('x', aspectType('datasetProperties'))).toBe('x');
    expect(fromAvroJson(null, aspectType('datasetProperties'))).toBeNull();
  });
});
