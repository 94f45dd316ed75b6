import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deref, loadModel, ModelError } from './load-model';
import type { EnumType, RecordType, TypeExpr } from './types';

/** Writes a model folder: `files` maps a path under the folder to its YAML text. */
function writeModel(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-model-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'aspects'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const TINY: Record<string, string> = {
  'types/common.yaml': `
name: com.example.AuditStamp
kind: record
fields:
  - { name: time, type: long }
  - { name: actor, type: urn }
  - { name: message, type: string, optional: true }
---
name: com.example.Color
kind: enum
symbols: [RED, GREEN]
---
name: com.example.Time
kind: typeref
type: com.example.Millis
---
name: com.example.Millis
kind: typeref
type: long
---
name: com.example.Value
kind: union
members: [string, com.example.AuditStamp, { array: string }, urn]
`,
  'types/aliased.yaml': `
name: com.example.Cost
kind: typeref
type: { union: [ { alias: costId, type: double }, { alias: costCode, type: string } ] }
`,
  'aspects/thingKey.yaml': `
name: thingKey
record: com.example.ThingKey
kind: key
fields:
  - { name: id, type: string }
searchable:
  - { path: /id, fieldType: TEXT_PARTIAL }
`,
  'aspects/thingInfo.yaml': `
name: thingInfo
record: com.example.ThingInfo
fields:
  - { name: name, type: string }
  - { name: color, type: com.example.Color, default: RED }
  - { name: created, type: com.example.AuditStamp, optional: true }
  - { name: when, type: com.example.Time }
  - { name: value, type: com.example.Value, optional: true }
  - { name: cost, type: com.example.Cost, optional: true }
  - name: parts
    type: { array: { record: com.example.Part, fields: [ { name: partName, type: string } ] } }
    default: []
  - { name: size, type: { enum: com.example.Size, symbols: [S, M, L] }, optional: true }
  - { name: props, type: { map: string }, default: {} }
searchable:
  - { path: /name, fieldType: TEXT_PARTIAL, boostScore: 10 }
  - { path: /parts/*/partName, fieldName: partNames }
  - { path: /created/time, fieldName: createdAt, fieldType: DATETIME }
  - { path: /props, fieldName: props, fieldType: TEXT, queryByDefault: false, addToFilters: true, hasValuesFieldName: hasProps, numValuesFieldName: numProps, fieldNameAliases: [_props] }
relationships:
  - { path: /created/actor, name: CreatedBy, entityTypes: [corpuser], isLineage: true, isUpstream: false, createdOn: /created/time, createdActor: /created/actor }
`,
  'aspects/thingStats.yaml': `
name: thingStats
record: com.example.ThingStats
kind: timeseries
fields:
  - { name: timestampMillis, type: long }
  - { name: count, type: long, optional: true }
timeseriesFields:
  - { path: /count, fieldType: COUNT }
  - { path: /timestampMillis }
`,
  'entity-registry.yaml': `
entities:
  - name: thing
    keyAspect: thingKey
    snapshot: com.example.ThingSnapshot
    aspects: [thingInfo]
    timeseriesAspects: [thingStats]
`,
};

describe('loadModel on a tiny model', () => {
  const model = loadModel(writeModel(TINY));
  const info = model.aspects.get('thingInfo')!;
  const field = (name: string) => info.type.fields.find((f) => f.name === name)!;

  it('loads without warnings', () => {
    expect(model.warnings).toEqual([]);
  });

  it('reads the entity with its key, versioned and time-series aspects', () => {
    const thing = model.entities.get('thing')!;
    expect(thing.keyAspect.name).toBe('thingKey');
    expect(thing.snapshot).toBe('com.example.ThingSnapshot');
    expect([...thing.aspects.keys()]).toEqual(['thingKey', 'thingInfo', 'thingStats']);
    expect(thing.aspects.get('thingStats')!.kind).toBe('timeseries');
    expect(thing.keyAspect.kind).toBe('key');
  });

  it('defaults an aspect kind to versioned and names its record', () => {
    expect(info.kind).toBe('versioned');
    expect(info.record).toBe('com.example.ThingInfo');
    expect(info.type.name).toBe('com.example.ThingInfo');
    expect(model.types.get('com.example.ThingInfo')).toBe(info.type);
  });

  it('reads fields in order with optional and default', () => {
    expect(info.type.fields.map((f) => f.name)).toEqual(['name', 'color', 'created', 'when', 'value', 'cost', 'parts', 'size', 'props']);
    expect(field('name')).toEqual({ name: 'name', type: { kind: 'primitive', name: 'string' }, optional: false });
    expect(field('created').optional).toBe(true);
    expect(field('color').default).toBe('RED');
    expect(field('parts').default).toEqual([]);
    expect('default' in field('name')).toBe(false);
  });

  it('resolves named records and enums', () => {
    const created = deref(field('created').type) as RecordType;
    expect(created.kind).toBe('record');
    expect(created.name).toBe('com.example.AuditStamp');
    expect(created.fields.map((f) => [f.name, f.type.kind, f.optional])).toEqual([
      ['time', 'primitive', false],
      ['actor', 'urn', false],
      ['message', 'primitive', true],
    ]);
    const color = deref(field('color').type) as EnumType;
    expect(color).toEqual({ kind: 'enum', name: 'com.example.Color', symbols: ['RED', 'GREEN'] });
  });

  it('follows a chain of typerefs to the primitive', () => {
    expect(deref(field('when').type)).toEqual({ kind: 'primitive', name: 'long' });
  });

  it('reads inline records and enums as named types', () => {
    const parts = deref(field('parts').type);
    expect(parts.kind).toBe('array');
    const item = deref((parts as { items: TypeExpr }).items) as RecordType;
    expect(item.name).toBe('com.example.Part');
    expect(model.types.get('com.example.Part')).toBe(item);
    expect(deref(field('size').type)).toEqual({ kind: 'enum', name: 'com.example.Size', symbols: ['S', 'M', 'L'] });
    expect(model.types.has('com.example.Size')).toBe(true);
  });

  it('keys the members of a union without aliases by type name', () => {
    const u = deref(field('value').type);
    if (u.kind !== 'union') throw new Error(`expected a union, got ${u.kind}`);
    expect(u.aliased).toBe(false);
    expect(u.members.map((m) => m.key)).toEqual(['string', 'com.example.AuditStamp', 'array', 'string']);
  });

  it('keys the members of an aliased union by alias', () => {
    const u = deref(field('cost').type);
    if (u.kind !== 'union') throw new Error(`expected a union, got ${u.kind}`);
    expect(u.aliased).toBe(true);
    expect(u.members.map((m) => [m.key, deref(m.type)])).toEqual([
      ['costId', { kind: 'primitive', name: 'double' }],
      ['costCode', { kind: 'primitive', name: 'string' }],
    ]);
  });

  it('reads search annotations with their defaults', () => {
    const [name, partNames, createdAt, props] = info.searchable;
    expect(name).toMatchObject({ path: '/name', fieldName: 'name', fieldType: 'TEXT_PARTIAL', queryByDefault: true, boostScore: 10, addToFilters: false, enableAutocomplete: false, fieldNameAliases: [] });
    // KEYWORD is not among the types queried by default (TEXT, TEXT_PARTIAL, URN, URN_PARTIAL, WORD_GRAM).
    expect(partNames).toMatchObject({ fieldName: 'partNames', fieldType: 'KEYWORD', queryByDefault: false, boostScore: 1 });
    expect(createdAt).toMatchObject({ fieldName: 'createdAt', fieldType: 'DATETIME', queryByDefault: false });
    expect(props).toMatchObject({ queryByDefault: false, addToFilters: true, hasValuesFieldName: 'hasProps', numValuesFieldName: 'numProps', fieldNameAliases: ['_props'] });
    expect(model.aspects.get('thingKey')!.searchable[0].fieldName).toBe('id');
  });

  it('reads relationships and time-series fields', () => {
    expect(info.relationships).toEqual([
      { path: '/created/actor', name: 'CreatedBy', entityTypes: ['corpuser'], isLineage: true, isUpstream: false, createdOn: '/created/time', createdActor: '/created/actor' },
    ]);
    expect(model.aspects.get('thingStats')!.timeseriesFields).toEqual([
      { path: '/count', fieldType: 'COUNT' },
      { path: '/timestampMillis', fieldType: 'COUNT' },
    ]);
  });
});

describe('loadModel errors', () => {
  const withFiles = (extra: Record<string, string>) => writeModel({ ...TINY, ...extra });

  it('rejects a type defined twice', () => {
    const dir = withFiles({ 'types/again.yaml': 'name: com.example.Color\nkind: enum\nsymbols: [BLUE]\n' });
    expect(() => loadModel(dir)).toThrow(ModelError);
    expect(() => loadModel(dir)).toThrow(/com\.example\.Color is defined twice/);
  });

  it('rejects an inline record that redefines a named type', () => {
    const dir = withFiles({
      'aspects/other.yaml': 'name: other\nrecord: com.example.Other\nfields:\n  - { name: a, type: { record: com.example.AuditStamp, fields: [] } }\n',
    });
    expect(() => loadModel(dir, { strict: false })).toThrow(/defined twice/);
  });

  it('rejects an aspect record that redefines a named type', () => {
    const dir = withFiles({ 'aspects/other.yaml': 'name: other\nrecord: com.example.AuditStamp\nfields: []\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(ModelError);
  });

  it('rejects a field declared twice', () => {
    const dir = withFiles({ 'aspects/other.yaml': 'name: other\nrecord: com.example.Other\nfields:\n  - { name: a, type: string }\n  - { name: a, type: long }\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(/field a is declared twice/);
  });

  it('rejects an aspect whose file is not named after it', () => {
    const dir = withFiles({ 'aspects/wrong.yaml': 'name: other\nrecord: com.example.Other\nfields: []\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(/file name must be other\.yaml/);
  });

  it('rejects a bad aspect kind', () => {
    const dir = withFiles({ 'aspects/other.yaml': 'name: other\nrecord: com.example.Other\nkind: weird\nfields: []\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(/bad kind weird/);
  });

  it('rejects a type of an unknown kind', () => {
    const dir = withFiles({ 'types/bad.yaml': 'name: com.example.Bad\nkind: struct\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(ModelError);
  });

  it.each([
    ['an unknown bare type name', '{ name: a, type: strin }'],
    ['an empty union', '{ name: a, type: { union: [] } }'],
    ['a union inside a union', '{ name: a, type: { union: [ string, { union: [ long ] } ] } }'],
    ['an unreadable expression', '{ name: a, type: { tuple: [ string ] } }'],
    ['an enum without symbols', '{ name: a, type: { enum: com.example.E } }'],
    ['a field without a name', '{ type: string }'],
  ])('rejects %s', (_what, fieldYaml) => {
    const dir = withFiles({ 'aspects/other.yaml': `name: other\nrecord: com.example.Other\nfields:\n  - ${fieldYaml}\n` });
    expect(() => loadModel(dir, { strict: false })).toThrow(ModelError);
  });

  it('rejects a searchable path that does not start with /', () => {
    const dir = withFiles({ 'aspects/other.yaml': 'name: other\nrecord: com.example.Other\nfields: []\nsearchable:\n  - { path: name }\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(/searchable #0/);
  });

  it('rejects invalid YAML', () => {
    const dir = withFiles({ 'aspects/other.yaml': 'name: other\nrecord: [unclosed\n' });
    expect(() => loadModel(dir, { strict: false })).toThrow(ModelError);
  });

  describe('unresolved names', () => {
    const dir = () =>
      withFiles({
        'aspects/other.yaml': 'name: other\nrecord: com.example.Other\nfields:\n  - { name: a, type: com.example.Missing }\n  - { name: b, type: { array: com.example.Missing } }\n',
        'entity-registry.yaml': `
entities:
  - name: thing
    keyAspect: thingKey
    aspects: [thingInfo, other, noSuchAspect]
  - name: ghost
    keyAspect: ghostKey
`,
      });

    it('are warnings when not strict, once per name', () => {
      const model = loadModel(dir(), { strict: false });
      expect(model.warnings).toEqual([
        'type com.example.Missing is referenced but not defined',
        'entity thing: aspect noSuchAspect is not defined',
        'entity ghost: key aspect ghostKey is not defined',
      ]);
      expect(model.entities.has('ghost')).toBe(false);
      expect([...model.entities.get('thing')!.aspects.keys()]).toEqual(['thingKey', 'thingInfo', 'other']);
    });

    it('fail a strict load (the default) listing each', () => {
      expect(() => loadModel(dir())).toThrow(ModelError);
      expect(() => loadModel(dir())).toThrow(/com\.example\.Missing[\s\S]*noSuchAspect[\s\S]*ghostKey/);
    });

    it('make deref throw', () => {
      const model = loadModel(dir(), { strict: false });
      const a = model.aspects.get('other')!.type.fields[0];
      expect(() => deref(a.type)).toThrow(/unresolved type com\.example\.Missing/);
    });
  });

  it('warns when the entity registry is missing', () => {
    const files = { ...TINY };
    delete files['entity-registry.yaml'];
    const dir = writeModel(files);
    expect(loadModel(dir, { strict: false }).warnings).toEqual(['entity-registry.yaml is missing']);
    expect(() => loadModel(dir)).toThrow(ModelError);
  });
});
