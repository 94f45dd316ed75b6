/** The compiled check says "clean" exactly when the walk returns the value itself without errors. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cleanCheckOf } from './compiled-check';
import { defaultRegistry } from './registry';
import { readSnapshot } from './snapshot';
import type { EnumType, FieldDef, PrimitiveName, RecordType, TypeExpr } from './types';
import { validateValue, walkValue } from './validate';

const SAMPLES_DIR = process.env.CAIRN_SAMPLES_DIR ?? resolve(__dirname, '../../../../../shared/data/reference-samples');

const prim = (name: PrimitiveName): TypeExpr => ({ kind: 'primitive', name });
const field = (name: string, type: TypeExpr, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, optional: false, ...extra });
const record = (name: string, fields: FieldDef[]): RecordType => ({ kind: 'record', name, fields });
const COLOR: EnumType = { kind: 'enum', name: 'com.example.Color', symbols: ['RED', 'GREEN'] };

function walkIsClean(value: unknown, type: TypeExpr): boolean {
  const walked = walkValue(value, type);
  return walked.value === value && walked.errors.length === 0;
}

function expectAgreement(value: unknown, type: TypeExpr): boolean {
  const clean = walkIsClean(value, type);
  expect({ value, compiled: cleanCheckOf(type)(value) }).toEqual({ value, compiled: clean });
  return clean;
}

describe('cleanCheckOf against the walk', () => {
  const ITEM = record('com.example.Item', [
    field('name', prim('string')),
    field('count', prim('int'), { optional: true }),
    field('size', prim('long'), { default: 0 }),
    field('ratio', prim('double'), { optional: true }),
    field('color', COLOR, { optional: true }),
    field('owner', { kind: 'urn' }, { optional: true }),
    field('labels', { kind: 'array', items: prim('string') }, { optional: true }),
    field('properties', { kind: 'map', values: prim('string') }, { optional: true }),
    field('choice', { kind: 'union', aliased: false, members: [{ key: 'string', type: prim('string') }, { key: 'int', type: prim('int') }] }, { optional: true }),
    field('flag', prim('boolean'), { optional: true }),
    field('data', prim('bytes'), { optional: true }),
  ]);

  it('accepts a clean value and refuses each way a value can be wrong or need a copy', () => {
    const cases: unknown[] = [
      { name: 'a' },
      { name: 'a', count: 3, size: 2, ratio: 0.5, color: 'RED', owner: 'urn:li:corpuser:x', labels: ['x'], properties: { k: 'v' }, choice: { int: 1 }, flag: true, data: 'AA' },
      {},
      null,
      'a',
      ['a'],
      { name: 'a', count: null },
      { name: 'a', size: null },
      { name: null },
      { name: 'a', extra: 1 },
      { name: 'a', count: 2147483648 },
      { name: 'a', count: 1.5 },
      { name: 'a', size: 1.5 },
      { name: 'a', ratio: Infinity },
      { name: 'a', ratio: NaN },
      { name: 'a', color: 'BLUE' },
      { name: 'a', color: 1 },
      { name: 'a', owner: 'not-a-urn' },
      { name: 'a', labels: 'x' },
      { name: 'a', labels: ['x', 1] },
      { name: 'a', labels: [null] },
      { name: 'a', properties: { k: 1 } },
      { name: 'a', properties: ['v'] },
      { name: 'a', choice: {} },
      { name: 'a', choice: { string: 'x', int: 1 } },
      { name: 'a', choice: { long: 1 } },
      { name: 'a', choice: { int: 'x' } },
      { name: 'a', flag: 'true' },
      { name: 'a', name2: undefined },
      { name: 'a', count: undefined },
      JSON.parse('{"name": "a", "__proto__": {"x": 1}}'),
      Object.assign(Object.create({ inherited: 1 }), { name: 'a' }),
    ];
    const clean = cases.map((value) => expectAgreement(value, ITEM));
    // Clean: the two well-formed values, and one whose only other key is inherited (neither reads those).
    expect(clean.flatMap((c, i) => (c ? [i] : []))).toEqual([0, 1, cases.length - 1]);
  });

  it('compiles a recursive type once and checks it to any depth', () => {
    const tree = record('com.example.Tree', []);
    tree.fields = [field('label', prim('string')), field('children', { kind: 'array', items: { kind: 'ref', name: tree.name, resolved: tree } }, { optional: true })];
    const deep = { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] };
    expect(expectAgreement(deep, tree)).toBe(true);
    expect(expectAgreement({ label: 'a', children: [{ label: 'b', children: [{ label: 3 }] }] }, tree)).toBe(false);
    expect(cleanCheckOf(tree)).toBe(cleanCheckOf({ kind: 'ref', name: tree.name, resolved: tree }));
  });

  it('keeps validateValue answering as the walk does', () => {
    const value = { name: 'a' };
    expect(validateValue(value, ITEM)).toEqual({ value, errors: [] });
    expect(validateValue(value, ITEM).value).toBe(value);
    expect(validateValue({ name: 'a', count: null }, ITEM)).toEqual(walkValue({ name: 'a', count: null }, ITEM));
    expect(validateValue({ name: 1, extra: true }, ITEM)).toEqual(walkValue({ name: 1, extra: true }, ITEM));
  });
});

/** Variants of a value, one change each: every object's keys set to null, removed, or joined by an unknown one; every leaf of another type. */
function* variants(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) for (const v of variants(value[i])) yield value.map((x, j) => (j === i ? v : x));
    yield [...value, 'unexpected'];
    return;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    yield { ...obj, unexpectedKey: 1 };
    for (const key of Object.keys(obj)) {
      yield { ...obj, [key]: null };
      const { [key]: _removed, ...rest } = obj;
      yield rest;
      for (const v of variants(obj[key])) yield { ...obj, [key]: v };
    }
    return;
  }
  yield typeof value === 'string' ? 1 : typeof value === 'number' ? (Number.isInteger(value) ? value + 0.5 : 'x') : 'x';
  if (typeof value === 'number' && Number.isInteger(value)) yield 2 ** 40;
}

describe('cleanCheckOf on the real model', () => {
  const registry = defaultRegistry();
  const aspects: { type: TypeExpr; value: unknown }[] = [];
  for (const file of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(SAMPLES_DIR, file), 'utf8'));
    for (const rec of (Array.isArray(data) ? data : [data]) as Record<string, any>[]) {
      try {
        if (rec.proposedSnapshot) for (const a of readSnapshot(registry, rec.proposedSnapshot).aspects) aspects.push({ type: a.spec.type, value: a.value });
        else {
          const spec = registry.entity(rec.entityType)?.aspects.get(rec.aspectName);
          if (spec && rec.aspect) aspects.push({ type: spec.type, value: rec.aspect.json ?? JSON.parse(rec.aspect.value) });
        }
      } catch {
        // Samples the model refuses are the registry tests' subject; here only their aspects count.
      }
    }
  }

  it('agrees with the walk on every sample aspect and on each variant of it', () => {
    expect(aspects.length).toBeGreaterThan(500);
    let clean = 0;
    let variantCount = 0;
    for (const { type, value } of aspects) {
      if (expectAgreement(value, type)) clean++;
      let taken = 0;
      for (const variant of variants(value)) {
        if (taken++ >= 200) break;
        variantCount++;
        expectAgreement(variant, type);
      }
    }
    expect(clean).toBeGreaterThan(aspects.length / 2);
    expect(variantCount).toBeGreaterThan(10_000);
  });
});
