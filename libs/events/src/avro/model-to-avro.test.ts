import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from 'avsc';
import { loadModel, type LoadedModel, type TypeExpr } from '@cairn/core';
import { toStrictAvroJson } from './avro-json';
import { AvroSchemaBuilder, AvroTranslationError, avroDefault } from './model-to-avro';

const NS = 'com.linkedin.pegasus2avro.test';

/** A small model folder exercising each kind of type expression. */
function writeModel(dir: string): void {
  mkdirSync(join(dir, 'types'));
  mkdirSync(join(dir, 'aspects'));
  const write = (file: string, lines: string[]) => writeFileSync(join(dir, file), lines.join('\n'));
  write('types/com.linkedin.test.Stamp.yaml', [
    'name: com.linkedin.test.Stamp',
    'kind: record',
    'fields:',
    '  - {name: time, type: long}',
    '  - {name: actor, type: urn}',
    '  - {name: note, type: string, optional: true}',
  ]);
  write('types/com.linkedin.test.Kind.yaml', ['name: com.linkedin.test.Kind', 'kind: enum', 'symbols: [A, B]']);
  write('types/com.linkedin.test.Millis.yaml', ['name: com.linkedin.test.Millis', 'kind: typeref', 'type: long']);
  write('aspects/thing.yaml', [
    'name: thing',
    'record: com.linkedin.test.Thing',
    'fields:',
    '  - {name: name, type: string}',
    '  - {name: note, type: string, optional: true}',
    '  - {name: kind, type: com.linkedin.test.Kind, default: A}',
    '  - {name: stamp, type: com.linkedin.test.Stamp, default: {time: 0, actor: "urn:li:corpuser:unknown"}}',
    '  - {name: previous, type: com.linkedin.test.Stamp, optional: true}',
    '  - {name: tags, type: {map: string}, default: {}}',
    '  - {name: at, type: {array: com.linkedin.test.Millis}}',
    '  - {name: either, type: {union: [string, com.linkedin.test.Stamp]}, optional: true}',
    '  - {name: flag, type: boolean, optional: true, default: false}',
    '  - {name: cost, type: {union: [{alias: costId, type: double}, {alias: costCode, type: string}]}}',
    '  - {name: nested, type: {record: com.linkedin.test.Nested, fields: [{name: level, type: {enum: com.linkedin.test.Level, symbols: [LOW, HIGH]}}]}, optional: true}',
  ]);
}

describe('model to Avro', () => {
  let dir: string;
  let model: LoadedModel;
  const typeOf = (name: string): TypeExpr => model.types.get(name) as TypeExpr;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-model-'));
    writeModel(dir);
    model = loadModel(dir, { strict: false });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('translates each kind of type expression as the reference does', () => {
    const stamp = {
      type: 'record',
      name: 'Stamp',
      namespace: NS,
      fields: [
        { name: 'time', type: 'long' },
        { name: 'actor', type: 'string' },
        { name: 'note', type: ['null', 'string'], default: null },
      ],
    };
    expect(new AvroSchemaBuilder().schemaOf(model.aspects.get('thing')!.type)).toEqual({
      type: 'record',
      name: 'Thing',
      namespace: NS,
      fields: [
        { name: 'name', type: 'string' },
        { name: 'note', type: ['null', 'string'], default: null },
        { name: 'kind', type: { type: 'enum', name: 'Kind', namespace: NS, symbols: ['A', 'B'] }, default: 'A' },
        { name: 'stamp', type: stamp, default: { time: 0, actor: 'urn:li:corpuser:unknown', note: null } },
        { name: 'previous', type: ['null', `${NS}.Stamp`], default: null },
        { name: 'tags', type: { type: 'map', values: 'string' }, default: {} },
        { name: 'at', type: { type: 'array', items: 'long' } },
        { name: 'either', type: ['null', 'string', `${NS}.Stamp`], default: null },
        { name: 'flag', type: ['boolean', 'null'], default: false },
        {
          name: 'cost',
          type: {
            type: 'record',
            name: 'ThingCost',
            namespace: NS,
            fields: [
              { name: 'costId', type: ['null', 'double'], default: null },
              { name: 'costCode', type: ['null', 'string'], default: null },
              { name: 'fieldDiscriminator', type: { type: 'enum', name: 'ThingCostDiscriminator', namespace: NS, symbols: ['costId', 'costCode'] } },
            ],
          },
        },
        {
          name: 'nested',
          type: ['null', { type: 'record', name: 'Nested', namespace: NS, fields: [{ name: 'level', type: { type: 'enum', name: 'Level', namespace: NS, symbols: ['LOW', 'HIGH'] } }] }],
          default: null,
        },
      ],
    });
  });

  it('gives avsc a schema it parses, with the defaults filled in', () => {
    const type = Type.forSchema(new AvroSchemaBuilder().schemaOf(model.aspects.get('thing')!.type) as Parameters<typeof Type.forSchema>[0]);
    const json = { name: 'n', at: [1, 2], either: { string: 'x' }, cost: { costId: { double: 1.5 }, costCode: null, fieldDiscriminator: 'costId' } };
    const value = type.fromString(JSON.stringify(toStrictAvroJson(type, json)));
    expect(JSON.parse(type.toString(type.fromBuffer(type.toBuffer(value))))).toMatchObject({
      kind: 'A',
      stamp: { time: 0, actor: 'urn:li:corpuser:unknown', note: null },
      tags: {},
      flag: { boolean: false },
      either: { string: 'x' },
    });
  });

  it('defines a named type once per builder and refers to it afterwards', () => {
    const builder = new AvroSchemaBuilder();
    expect(builder.schemaOf(typeOf('com.linkedin.test.Kind'))).toMatchObject({ type: 'enum', name: 'Kind' });
    expect(builder.schemaOf(typeOf('com.linkedin.test.Kind'))).toBe(`${NS}.Kind`);
  });

  it('refuses what an Avro schema cannot express', () => {
    const stamp = typeOf('com.linkedin.test.Stamp');
    expect(() => avroDefault({ time: 0, actor: 'a', note: 'set' }, stamp, 'stamp')).toThrow(AvroTranslationError);
    expect(() => avroDefault({ time: 0 }, stamp, 'stamp')).toThrow(/stamp.actor: the default has no value/);
    const union: TypeExpr = { kind: 'union', aliased: false, members: [{ key: 'string', type: { kind: 'primitive', name: 'string' } }, { key: 'int', type: { kind: 'primitive', name: 'int' } }] };
    expect(avroDefault({ string: 'x' }, union, 'u')).toBe('x');
    expect(() => avroDefault({ int: 1 }, union, 'u')).toThrow(/first member \(string\)/);
    expect(() => new AvroSchemaBuilder().schemaOf({ ...union, aliased: true })).toThrow(/must be the type of a record field/);
  });
});
