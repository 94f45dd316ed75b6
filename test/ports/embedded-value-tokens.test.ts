/**
 * Fields whose many values only filters read (a schema's field paths and descriptions) keep them as
 * tokens in the embedded search file, and other fields their lookup terms: every filter answers as
 * it does from value rows, fields of earlier versions' files keep their rows until a rebuild, and a
 * rebuild lays them out anew.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteSearchIndex, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import type { FilterCondition } from '@cairn/ports';
import { planAutocomplete, planSearch, searchFieldsOf, searchSchemaOf } from '@cairn/search';

const registry = defaultRegistry();
const schema = searchSchemaOf(registry);
const mappings = schema.mappings();
const dir = mkdtempSync(join(tmpdir(), 'cairn-value-tokens-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

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

const count = (db: EmbeddedDb, sql: string) => db.prepare(sql).pluck().get() as number;
const fieldPathRows = (db: EmbeddedDb) => count(db, "SELECT COUNT(*) FROM search_values v JOIN search_fields f USING (field_id) WHERE f.name = 'fieldPaths'");
/** Token rows of fields keeping their values as tokens. */
const tokenRows = (db: EmbeddedDb) => count(db, 'SELECT COUNT(*) FROM search_value_fts v JOIN search_fields f ON f.field_id = v.rowid % 65536 WHERE f.value_tokens = 1');
const termRows = (db: EmbeddedDb) => count(db, 'SELECT COUNT(*) FROM search_terms');
/** Term rows of fields keeping their lookup terms as tokens (none unless an earlier version allocated the field). */
const tokenFieldTermRows = (db: EmbeddedDb) => count(db, 'SELECT COUNT(*) FROM search_terms t JOIN search_fields f USING (field_id) WHERE f.term_tokens = 1');

/** A file whose fields an earlier version allocated (every model field of datasets): they keep value and term rows. */
function earlierVersionFile(file: string): void {
  const db = openDatabase(file);
  new SqliteSearchIndex(db, mappings);
  const allocate = db.prepare("INSERT INTO search_fields (entity_type, name) VALUES ('dataset', ?)");
  for (const name of mappings.get('dataset')!.keys()) allocate.run(name);
  // Nor had it the columns that say how a field keeps them.
  db.exec('ALTER TABLE search_fields DROP COLUMN value_tokens; ALTER TABLE search_fields DROP COLUMN term_tokens');
  db.close();
}

const NAMES = ['SampleHiveDataset', 'sample_orders', 'Sample', 'orders_daily', 'ORDERS', 'sampler'];

/** Datasets with key fields, names and tags, as the search projector writes them. */
async function seededNames(index: SqliteSearchIndex): Promise<void> {
  for (const [i, name] of NAMES.entries()) {
    const urn = ds(name);
    const { urn: parsed, entity } = registry.parseEntityUrn(urn);
    const key = searchFieldsOf(entity.keyAspect, registry.keyFromUrn(parsed, entity));
    const tags = searchFieldsOf(entity.aspects.get('globalTags')!, { tags: [{ tag: `urn:li:tag:T${i % 2}` }] });
    const properties = searchFieldsOf(entity.aspects.get('datasetProperties')!, { name, customProperties: {} });
    await index.upsertFields('dataset', urn, { urn, ...key, ...tags, ...properties });
  }
}

/** Whole-value lookups, autocomplete and ranked search, with scores. */
async function lookups(index: SqliteSearchIndex): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const input of ['tags:t0', 'tags:urn:li:tag:T1', 'name:sample', 'name:ORDERS', 'urn:hive', 'platform:hive', 'sample', 'orders', 'samp', 'sample orders']) {
    const page = await index.search(planSearch(schema, { entityTypes: ['dataset'], input }), { from: 0, size: 10 });
    out.push([input, page.total, page.hits.map((h) => [h.urn, h.score])]);
  }
  for (const query of ['s', 'samp', 'sample', 'SAMPLE_', 'orders', 'o', 'hive']) {
    out.push([query, await index.autocomplete(planAutocomplete(schema, { entityTypes: ['dataset'], query, limit: 10 }))]);
  }
  // A field asked for by name, whose terms are tokens: its prefixes are read from them.
  for (const query of ['urn:li:tag:t', 'urn:li:tag:T1', 't0']) {
    out.push([query, await index.autocomplete(planAutocomplete(schema, { entityTypes: ['dataset'], query, field: 'tags', limit: 10 }))]);
  }
  return out;
}

interface Layouts {
  /** A file whose dataset fields an earlier version allocated: value and term rows. */
  readonly byRows: EmbeddedDb;
  readonly rowsIndex: SqliteSearchIndex;
  /** A new file: value and term tokens where the model allows. */
  readonly byTokens: EmbeddedDb;
  readonly tokensIndex: SqliteSearchIndex;
}

/** The same documents on both layouts. */
async function bothLayouts(seed: (index: SqliteSearchIndex) => Promise<void>, check: (layouts: Layouts) => Promise<void>): Promise<void> {
  const earlier = join(dir, `earlier-${++files}.sqlite`);
  earlierVersionFile(earlier);
  const byRows = openDatabase(earlier);
  const byTokens = openDatabase(':memory:');
  try {
    const rowsIndex = new SqliteSearchIndex(byRows, mappings);
    const tokensIndex = new SqliteSearchIndex(byTokens, mappings);
    await seed(rowsIndex);
    await seed(tokensIndex);
    await check({ byRows, rowsIndex, byTokens, tokensIndex });
  } finally {
    byRows.close();
    byTokens.close();
  }
}

describe('SQLite search index: term tokens', () => {
  it('answers whole-value lookups, autocomplete and ranking as term rows do, writing term rows only where prefixes are looked up', () =>
    bothLayouts(seededNames, async ({ byRows, rowsIndex, byTokens, tokensIndex }) => {
    expect(termRows(byTokens)).toBeGreaterThan(0);
    expect(termRows(byRows)).toBeGreaterThan(termRows(byTokens));
    expect(tokenFieldTermRows(byTokens)).toBe(0);
    // Names are autocompleted: their prefixes are read in order from term rows.
    expect(count(byTokens, "SELECT COUNT(*) FROM search_terms t JOIN search_fields f USING (field_id) WHERE f.name = 'name'")).toBeGreaterThan(0);
    const expected = await lookups(rowsIndex);
    expect(expected[0]).toEqual(['tags:t0', 3, expect.any(Array)]);
    expect(await lookups(tokensIndex)).toEqual(expected);
  }));
});

describe('SQLite search index: value tokens', () => {
  it('answers every filter, sort and facet as value rows do, writing no value rows for those fields', () =>
    bothLayouts(seeded, async ({ byRows, rowsIndex, byTokens, tokensIndex }) => {
    expect(fieldPathRows(byRows)).toBeGreaterThan(0);
    expect(fieldPathRows(byTokens)).toBe(0);
    expect(tokenRows(byTokens)).toBe(5);
    const expected = await answers(rowsIndex);
    expect(expected['fieldPaths GREATER_THAN 9']).toEqual([ds('a'), ds('c')]);
    expect(expected['fieldPaths EQUAL zip']).toEqual([]);
    expect(await answers(tokensIndex)).toEqual(expected);
  }));

  it('keeps the value and term rows of fields an earlier version allocated until a rebuild lays the fields out anew', async () => {
    let expected: Record<string, string[]> = {};
    await bothLayouts(seeded, async ({ rowsIndex }) => {
      expected = await answers(rowsIndex);
    });
    const file = join(dir, 'earlier.sqlite');
    earlierVersionFile(file);

    const db = openDatabase(file);
    const index = new SqliteSearchIndex(db, mappings, { writerThread: true, readThreads: 1 });
    await seeded(index);
    expect(fieldPathRows(db)).toBeGreaterThan(0);
    expect(tokenRows(db)).toBe(0);
    const urnTermRows = () => count(db, "SELECT COUNT(*) FROM search_terms t JOIN search_fields f USING (field_id) WHERE f.name = 'urn'");
    expect(urnTermRows()).toBeGreaterThan(0);
    expect(await answers(index)).toEqual(expected);
    const lookup = (input: string) => index.search(planSearch(schema, { entityTypes: ['dataset'], input }), { from: 0, size: 10 }).then((r) => r.hits.map((h) => h.urn));
    expect(await lookup('urn:urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)')).toEqual([ds('b')]);
    // A URN field's components are lookup terms.
    expect(await lookup('urn:HIVE')).toHaveLength(4);

    await index.clearForRebuild();
    await seeded(index);
    await index.rebuilt();
    expect(fieldPathRows(db)).toBe(0);
    expect(tokenRows(db)).toBe(5);
    expect(urnTermRows()).toBe(0);
    expect(tokenFieldTermRows(db)).toBe(0);
    expect(await answers(index)).toEqual(expected);
    expect(await lookup('urn:urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)')).toEqual([ds('b')]);
    expect(await lookup('urn:HIVE')).toHaveLength(4);
    await index.close();
    db.close();
  });
});
