/**
 * Fields whose many values only filters read (a schema's field paths and descriptions) keep them as
 * tokens in the embedded search file: every filter answers as it does from value rows, files of
 * earlier versions keep their rows until a rebuild, and a rebuild lays them out anew.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteSearchIndex, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import type { FilterCondition, SearchMappings } from '@cairn/ports';
import { planSearch, searchFieldsOf, searchSchemaOf } from '@cairn/search';

const registry = defaultRegistry();
const schema = searchSchemaOf(registry);
const mappings = schema.mappings();
/** The same model with every field keeping value rows, as files of earlier versions do. */
const rowsOnly: SearchMappings = new Map([...mappings].map(([type, fields]) => [type, new Map([...fields].map(([name, m]) => [name, { ...m, manyValues: false }]))]));

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const field = (fieldPath: string, description?: string) => ({ fieldPath, nativeDataType: 'x', type: { type: { 'com.linkedin.schema.StringType': {} } }, ...(description ? { description } : {}) });
const DOCS: [string, ReturnType<typeof field>[]][] = [
  [ds('a'), [field('user_id', 'The user'), field('Address.Zip', 'Postal code'), field('42'), field('x'.repeat(600))]],
  [ds('b'), [field('user_name', 'Name of the user'), field('address.zip'), field('7'), field('éclair', 'Pâtisserie')]],
  [ds('c'), [field('10'), field('ZIP')]],
  [ds('d'), []],
];

async function seeded(index: SqliteSearchIndex): Promise<void> {
  const { entity } = registry.parseEntityUrn(DOCS[0][0]);
  const spec = entity.aspects.get('schemaMetadata')!;
  for (const [urn, fields] of DOCS) {
    const value = { schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields };
    await index.upsertFields('dataset', urn, { urn, ...searchFieldsOf(spec, value) });
  }
}

const CONDITIONS: [FilterCondition, string][] = [
  ['EQUAL', 'user_id'],
  ['EQUAL', 'ZIP'],
  ['EQUAL', 'zip'],
  ['EQUAL', 'éclair'],
  ['EQUAL', 'x'.repeat(600)],
  ['START_WITH', 'user'],
  ['START_WITH', 'addr'],
  ['START_WITH', ''],
  ['START_WITH', 'éc'],
  ['CONTAIN', 'ZIP'],
  ['CONTAIN', '.'],
  ['END_WITH', 'ip'],
  ['GREATER_THAN', '9'],
  ['GREATER_THAN_OR_EQUAL_TO', '10'],
  ['LESS_THAN', '42'],
  ['LESS_THAN_OR_EQUAL_TO', 'user_id'],
  ['GREATER_THAN', 'b'],
  ['EXISTS', ''],
  ['IS_NULL', ''],
];

async function answers(index: SqliteSearchIndex): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const fieldName of ['fieldPaths', 'fieldDescriptions']) {
    for (const [condition, value] of CONDITIONS) {
      for (const negated of [false, true]) {
        const filter = { or: [{ and: [{ field: fieldName, value, condition, negated }] }] };
        const page = await index.search(planSearch(schema, { entityTypes: ['dataset'], input: '*', filter }), { from: 0, size: 10 });
        out[`${fieldName} ${negated ? 'NOT ' : ''}${condition} ${value.slice(0, 20)}`] = page.hits.map((h) => h.urn);
      }
    }
    for (const order of ['ASCENDING', 'DESCENDING']) {
      const page = await index.search(planSearch(schema, { entityTypes: ['dataset'], input: '*', sort: { field: fieldName, order } }), { from: 0, size: 10 });
      out[`${fieldName} sorted ${order}`] = page.hits.map((h) => h.urn);
    }
    const facets = await index.search({ ...planSearch(schema, { entityTypes: ['dataset'], input: '*' }), facets: [{ field: fieldName, size: 20 }] }, { from: 0, size: 0 });
    out[`${fieldName} facet`] = (facets.facets[0]?.values ?? []).map((v) => `${v.value} ${v.count}`);
  }
  return out;
}

const rows = (db: EmbeddedDb, sql: string) => db.prepare(sql).pluck().get() as number;
const fieldPathRows = (db: EmbeddedDb) => rows(db, "SELECT COUNT(*) FROM search_values v JOIN search_fields f USING (field_id) WHERE f.name = 'fieldPaths'");
const tokenRows = (db: EmbeddedDb) => rows(db, 'SELECT COUNT(*) FROM search_value_fts');

describe('SQLite search index: value tokens', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-value-tokens-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every filter, sort and facet as value rows do, writing no value rows for those fields', async () => {
    const byRows = openDatabase(':memory:');
    const byTokens = openDatabase(':memory:');
    const rowsIndex = new SqliteSearchIndex(byRows, rowsOnly);
    const tokensIndex = new SqliteSearchIndex(byTokens, mappings);
    await seeded(rowsIndex);
    await seeded(tokensIndex);
    expect(fieldPathRows(byRows)).toBeGreaterThan(0);
    expect(fieldPathRows(byTokens)).toBe(0);
    expect(tokenRows(byTokens)).toBe(5);
    const expected = await answers(rowsIndex);
    expect(expected['fieldPaths GREATER_THAN 9']).toEqual([ds('a'), ds('c')]);
    expect(expected['fieldPaths EQUAL zip']).toEqual([]);
    expect(await answers(tokensIndex)).toEqual(expected);
    byRows.close();
    byTokens.close();
  });

  it('keeps the value rows of a file of an earlier version until a rebuild lays the fields out anew', async () => {
    const file = join(dir, 'earlier.sqlite');
    const earlier = openDatabase(file);
    await seeded(new SqliteSearchIndex(earlier, rowsOnly));
    const expected = await answers(new SqliteSearchIndex(earlier, rowsOnly));
    // Earlier versions had no column saying how a field keeps its values.
    earlier.exec('ALTER TABLE search_fields DROP COLUMN value_tokens');
    earlier.close();

    const db = openDatabase(file);
    const index = new SqliteSearchIndex(db, mappings, { writerThread: true, readThreads: 1 });
    expect(await answers(index)).toEqual(expected);
    await seeded(index);
    expect(fieldPathRows(db)).toBeGreaterThan(0);
    expect(tokenRows(db)).toBe(0);

    await index.clearForRebuild();
    await seeded(index);
    await index.rebuilt();
    expect(fieldPathRows(db)).toBe(0);
    expect(tokenRows(db)).toBe(5);
    expect(await answers(index)).toEqual(expected);
    await index.close();
    db.close();
  });
});
