import { validateValue } from './validate';
import type { EnumType, FieldDef, PrimitiveName, RecordType, TypeExpr } from './types';

const prim = (name: PrimitiveName): TypeExpr => ({ kind: 'primitive', name });
const URN: TypeExpr = { kind: 'urn' };
const field = (name: string, type: TypeExpr, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, optional: false, ...extra });
const record = (name: string, fields: FieldDef[]): RecordType => ({ kind: 'record', name, fields });
const COLOR: EnumType = { kind: 'enum', name: 'com.example.Color', symbols: ['RED', 'GREEN'] };
const STAMP = record('com.example.AuditStamp', [field('time', prim('long')), field('actor', URN), field('message', prim('string'), { optional: true })]);

const errorsOf = (value: unknown, type: TypeExpr) => validateValue(value, type).errors;
const ok = (value: unknown, type: TypeExpr) => expect(errorsOf(value, type)).toEqual([]);
const bad = (value: unknown, type: TypeExpr) => expect(errorsOf(value, type)).toHaveLength(1);

describe('validateValue: primitives', () => {
  it('string and bytes take strings only', () => {
    for (const t of [prim('string'), prim('bytes')]) {
      ok('', t);
      ok('x', t);
      bad(1, t);
      bad(null, t);
      bad({}, t);
      bad(['x'], t);
    }
  });

  it('boolean takes booleans only', () => {
    ok(true, prim('boolean'));
    ok(false, prim('boolean'));
    bad('true', prim('boolean'));
    bad(0, prim('boolean'));
  });

  it('int takes 32-bit integers', () => {
    ok(0, prim('int'));
    ok(-5, prim('int'));
    ok(2147483647, prim('int'));
    ok(-2147483648, prim('int'));
    bad(2147483648, prim('int'));
    bad(-2147483649, prim('int'));
    bad(1.5, prim('int'));
    bad('1', prim('int'));
  });

  it('long takes integers of any size', () => {
    ok(1_700_000_000_000, prim('long'));
    ok(-1, prim('long'));
    bad(1.5, prim('long'));
    bad('1700000000000', prim('long'));
  });

  it('float and double take finite numbers', () => {
    for (const t of [prim('float'), prim('double')]) {
      ok(1.5, t);
      ok(3, t);
      bad(Infinity, t);
      bad(NaN, t);
      bad('1.5', t);
    }
  });

  it('urn takes strings that parse as URNs', () => {
    ok('urn:li:corpuser:jdoe', URN);
    ok('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)', URN);
    bad('jdoe', URN);
    bad('urn:li:dataset:(a,,b)', URN);
    bad(42, URN);
  });

  it('enum takes its symbols only', () => {
    ok('RED', COLOR);
    bad('BLUE', COLOR);
    bad('red', COLOR);
    bad(0, COLOR);
    expect(errorsOf('BLUE', COLOR)[0]).toContain('com.example.Color');
  });
});

describe('validateValue: containers', () => {
  const LIST: TypeExpr = { kind: 'array', items: prim('int') };
  const MAP: TypeExpr = { kind: 'map', values: prim('string') };

  it('checks every array item, with its index in the path', () => {
    ok([], LIST);
    ok([1, 2], LIST);
    expect(errorsOf([1, 'x', 3, 2.5], LIST)).toEqual(['/1: expected an int, got string "x"', '/3: expected an int, got number 2.5']);
    expect(errorsOf({ 0: 1 }, LIST)).toEqual(['/: expected an array, got an object']);
  });

  it('checks every map value, with its key in the path', () => {
    ok({}, MAP);
    ok({ a: 'x', b: 'y' }, MAP);
    expect(errorsOf({ a: 'x', b: 1 }, MAP)).toEqual(['/b: expected a string, got number 1']);
    expect(errorsOf(['x'], MAP)).toEqual(['/: expected a map, got an array']);
    bad(null, MAP);
  });

  it('keeps a map key named __proto__', () => {
    const { value, errors } = validateValue(JSON.parse('{"__proto__":"x","a":"y"}'), MAP);
    expect(errors).toEqual([]);
    expect(JSON.stringify(value)).toBe('{"__proto__":"x","a":"y"}');
  });

  it('copies a map whose values change, every key in its place, __proto__ too', () => {
    const STAMPS: TypeExpr = { kind: 'map', values: STAMP };
    const input = JSON.parse('{"__proto__":{"time":1,"actor":"urn:li:corpuser:a"},"b":{"time":2,"actor":"urn:li:corpuser:b","message":null},"c":{"time":3,"actor":"urn:li:corpuser:c"}}');
    const { value, errors } = validateValue(input, STAMPS);
    expect(errors).toEqual([]);
    expect(value).not.toBe(input);
    expect(JSON.stringify(value)).toBe('{"__proto__":{"time":1,"actor":"urn:li:corpuser:a"},"b":{"time":2,"actor":"urn:li:corpuser:b"},"c":{"time":3,"actor":"urn:li:corpuser:c"}}');
    expect(input.b.message).toBeNull();
  });

  const UNION: TypeExpr = {
    kind: 'union',
    aliased: false,
    members: [
      { key: 'string', type: prim('string') },
      { key: 'com.example.AuditStamp', type: STAMP },
    ],
  };

  it('takes a union as an object with one member key', () => {
    ok({ string: 'x' }, UNION);
    ok({ 'com.example.AuditStamp': { time: 1, actor: 'urn:li:corpuser:a' } }, UNION);
  });

  it('checks the member value with the member key in the path', () => {
    expect(errorsOf({ 'com.example.AuditStamp': { time: 'x', actor: 'urn:li:corpuser:a' } }, UNION)).toEqual([
      '/com.example.AuditStamp/time: expected a long, got string "x"',
    ]);
    expect(errorsOf({ string: 1 }, UNION)).toEqual(['/string: expected a string, got number 1']);
  });

  it('rejects unknown members, several keys, bare values and null', () => {
    expect(errorsOf({ long: 1 }, UNION)[0]).toMatch(/'long' is not a member of the union \(string, com\.example\.AuditStamp\)/);
    bad({ string: 'x', long: 1 }, UNION);
    bad({}, UNION);
    bad('x', UNION);
    bad(null, UNION);
  });

  it('keys an aliased union by alias', () => {
    const cost: TypeExpr = { kind: 'union', aliased: true, members: [{ key: 'costId', type: prim('double') }, { key: 'costCode', type: prim('string') }] };
    ok({ costId: 1.5 }, cost);
    ok({ costCode: 'X' }, cost);
    bad({ double: 1.5 }, cost);
  });

  it('follows refs', () => {
    const ref: TypeExpr = { kind: 'ref', name: 'com.example.Color', resolved: COLOR };
    ok('RED', ref);
    bad('BLUE', ref);
    expect(() => validateValue('x', { kind: 'ref', name: 'com.example.Missing' })).toThrow(/unresolved/);
  });
});

describe('validateValue: records', () => {
  const INFO = record('com.example.Info', [
    field('name', prim('string')),
    field('description', prim('string'), { optional: true }),
    field('tags', { kind: 'array', items: prim('string') }, { default: [] }),
    field('color', COLOR, { default: 'RED' }),
    field('created', STAMP, { optional: true }),
    field('owners', { kind: 'array', items: STAMP }, { optional: true }),
  ]);

  it('takes a record with only its required fields', () => {
    const { value, errors } = validateValue({ name: 'n' }, INFO);
    expect(errors).toEqual([]);
    expect(value).toEqual({ name: 'n' });
  });

  it('reports a missing required field with its path', () => {
    expect(errorsOf({}, INFO)).toEqual(['/name: required field is missing']);
    expect(errorsOf({ name: 'n', created: { time: 1 } }, INFO)).toEqual(['/created/actor: required field is missing']);
  });

  it('rejects null for a required field', () => {
    expect(errorsOf({ name: null }, INFO)).toEqual(['/name: expected a string, got null']);
  });

  it('strips null optional and defaulted fields, at any depth', () => {
    const input = {
      name: 'n',
      description: null,
      tags: null,
      color: null,
      created: { time: 1, actor: 'urn:li:corpuser:a', message: null },
      owners: [{ time: 2, actor: 'urn:li:corpuser:b', message: null }],
    };
    const { value, errors } = validateValue(input, INFO);
    expect(errors).toEqual([]);
    expect(value).toEqual({ name: 'n', created: { time: 1, actor: 'urn:li:corpuser:a' }, owners: [{ time: 2, actor: 'urn:li:corpuser:b' }] });
    expect(JSON.stringify(value)).not.toContain('null');
    expect(input.description).toBeNull();
  });

  it('does not fill defaults (absent stays absent)', () => {
    expect(validateValue({ name: 'n' }, INFO).value).not.toHaveProperty('tags');
  });

  it('checks present optional fields', () => {
    expect(errorsOf({ name: 'n', description: 3 }, INFO)).toEqual(['/description: expected a string, got number 3']);
    expect(errorsOf({ name: 'n', color: 'BLUE' }, INFO)).toEqual(['/color: string "BLUE" is not a symbol of enum com.example.Color']);
  });

  it('reports unknown fields and keeps them in the value', () => {
    const { value, errors } = validateValue({ name: 'n', extra: 1 }, INFO);
    expect(errors).toEqual(['/extra: unrecognized field of com.example.Info']);
    expect(value).toEqual({ name: 'n', extra: 1 });
  });

  it('reports deep paths through arrays of records', () => {
    expect(errorsOf({ name: 'n', owners: [{ time: 1, actor: 'urn:li:corpuser:a' }, { time: 2, actor: 'nobody' }] }, INFO)).toEqual([
      '/owners/1/actor: expected a urn, got string "nobody"',
    ]);
  });

  it('rejects a non-object record with the root path', () => {
    expect(errorsOf('n', INFO)).toEqual(['/: expected a com.example.Info record, got string "n"']);
    expect(errorsOf([], INFO)).toEqual(['/: expected a com.example.Info record, got an array']);
    expect(errorsOf(null, INFO)).toEqual(['/: expected a com.example.Info record, got null']);
  });

  it('reports several errors of one value', () => {
    expect(errorsOf({ description: 1, extra: true }, INFO)).toEqual([
      '/extra: unrecognized field of com.example.Info',
      '/name: required field is missing',
      '/description: expected a string, got number 1',
    ]);
  });

  it('stops at 20 errors', () => {
    const list: TypeExpr = { kind: 'array', items: prim('string') };
    const errors = errorsOf(Array.from({ length: 50 }, (_, i) => i), list);
    expect(errors).toHaveLength(20);
    expect(errors[0]).toBe('/0: expected a string, got number 0');
    expect(errors[19]).toBe('/19: expected a string, got number 19');
  });

  it('returns a new value and leaves the input as it was', () => {
    const input = { name: 'n', description: null };
    const { value } = validateValue(input, INFO);
    expect(value).not.toBe(input);
    expect(input).toEqual({ name: 'n', description: null });
  });

  it('returns the input itself when it is in normal form already, at any depth', () => {
    const WITH_MAP_AND_UNION = record('com.example.Outer', [
      field('info', INFO),
      field('props', { kind: 'map', values: prim('string') }),
      field('choice', { kind: 'union', aliased: false, members: [{ key: 'string', type: prim('string') }, { key: 'com.example.Info', type: INFO }] }),
    ]);
    const info = { name: 'n', tags: ['a'], created: { time: 1, actor: 'urn:li:corpuser:a' }, owners: [{ time: 2, actor: 'urn:li:corpuser:b' }] };
    const input = { info, props: { k: 'v' }, choice: { 'com.example.Info': { name: 'm' } } };
    const { value, errors } = validateValue(input, WITH_MAP_AND_UNION);
    expect(errors).toEqual([]);
    expect(value).toBe(input);
  });

  it('strips a deep null, copying only the records and arrays that hold it', () => {
    const owner = { time: 2, actor: 'urn:li:corpuser:b' };
    const created = { actor: 'urn:li:corpuser:a', time: 1 };
    const input = { name: 'n', created, owners: [owner, { time: 3, actor: 'urn:li:corpuser:c', message: null }] };
    const { value, errors } = validateValue(input, INFO);
    expect(errors).toEqual([]);
    expect(value).toEqual({ name: 'n', created, owners: [owner, { time: 3, actor: 'urn:li:corpuser:c' }] });
    const out = value as typeof input;
    expect(out).not.toBe(input);
    expect(out.owners).not.toBe(input.owners);
    expect(out.created).toBe(created);
    expect(out.owners[0]).toBe(owner);
    expect(input.owners[1]).toEqual({ time: 3, actor: 'urn:li:corpuser:c', message: null });
  });

  it('drops a field whose value is undefined, as serialising would', () => {
    const input = { name: 'n', description: undefined };
    const { value } = validateValue(input, INFO);
    expect(value).not.toBe(input);
    expect(Object.keys(value as object)).toEqual(['name']);
  });
});
