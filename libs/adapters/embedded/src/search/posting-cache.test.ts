import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchMappings, SearchQuery } from '@cairn/ports';
import { openDatabase, type EmbeddedDb } from '../database';
import { SqliteSearchIndex } from '../sqlite-search-index';
import { DocCatalog } from './doc-catalog';
import { DocValues } from './doc-values';
import { DocumentWriter } from './document-writer';
import { PostingCache, replaceDocs } from './posting-cache';
import { LocalReaderState } from './reader-state';
import { createSearchTables, FIELD_SLOTS, FieldRegistry } from './search-tables';

const row = (docId: number, fieldId: number) => docId * FIELD_SLOTS + fieldId;
const mappings: SearchMappings = new Map([
  [
    'dataset',
    new Map([
      ['name', { type: 'WORD_GRAM' as const, autocomplete: true }],
      ['description', { type: 'TEXT' as const, autocomplete: false }],
    ]),
  ],
]);
const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${String(i).padStart(5, '0')},PROD)`;

describe('replaceDocs', () => {
  it('drops every row of the changed documents and merges their fresh rows in order', () => {
    const rows = Float64Array.from([row(1, 3), row(2, 3), row(2, 5), row(4, 3), row(7, 1)]);
    const patched = replaceDocs(rows, [2, 5, 7], [row(2, 4), row(5, 1)]);
    expect([...patched]).toEqual([row(1, 3), row(2, 4), row(4, 3), row(5, 1)]);
  });

  it('keeps rows of documents before and after the changed ones', () => {
    expect([...replaceDocs(Float64Array.from([row(1, 1), row(9, 1)]), [5], [])]).toEqual([row(1, 1), row(9, 1)]);
    expect([...replaceDocs(new Float64Array(0), [5], [row(5, 2)])]).toEqual([row(5, 2)]);
  });
});

describe('PostingCache', () => {
  function opened(rowsPerChangedDoc?: number) {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const fields = new FieldRegistry(db, mappings);
    const catalog = new DocCatalog(db);
    const writer = new DocumentWriter(db, fields, new LocalReaderState(fields, catalog, new DocValues(db, fields)));
    const cache = new PostingCache(db, fields, catalog, rowsPerChangedDoc === undefined ? {} : { rowsPerChangedDoc });
    const words = db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid').pluck();
    const fromIndex = (expression: string) => words.all(expression) as number[];
    let reads = 0;
    const kept = (expression: string) =>
      [...cache.rows(expression, expression, () => true, () => {
        reads++;
        return fromIndex(expression);
      })];
    for (let i = 0; i < 20; i++) writer.upsert('dataset', urn(i), { urn: urn(i), name: i % 2 ? `alpha ${i}` : `beta ${i}` });
    return { writer, kept, fromIndex, reads: () => reads };
  }

  it('patches kept rows with the changed documents instead of reading them again', () => {
    const { writer, kept, fromIndex, reads } = opened(0);
    expect(kept('"alpha"')).toEqual(fromIndex('"alpha"'));
    writer.upsert('dataset', urn(2), { name: 'alpha now', description: 'alpha too' });
    writer.upsert('dataset', urn(1), { name: 'gamma' });
    writer.delete('dataset', urn(3));
    writer.upsert('dataset', urn(50), { urn: urn(50), name: 'alpha new' });
    expect(kept('"alpha"')).toEqual(fromIndex('"alpha"'));
    expect(kept('"alpha"')).toHaveLength(11);
    expect(reads()).toBe(1);
  });

  it('reads afresh when deriving the changed documents would cost more than reading', () => {
    const { writer, kept, fromIndex, reads } = opened();
    expect(kept('"alpha"')).toEqual(fromIndex('"alpha"'));
    writer.upsert('dataset', urn(1), { name: 'gamma' });
    expect(kept('"alpha"')).toEqual(fromIndex('"alpha"'));
    expect(reads()).toBe(2);
  });
});

/**
 * Kept word matches must answer as the word index would after every kind of write: in the writer's
 * thread, and on a reader thread that learns of the writes by message.
 */
describe.each([
  ['in the writer\'s thread', 0],
  ['on a reader thread', 1],
])('search after writes, with kept word matches, %s', (_, readThreads) => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-posting-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const query = (text: string, fields: string[]): SearchQuery => ({
    entityTypes: ['dataset'],
    filter: [],
    includeRemoved: false,
    terms: [{ kind: 'words', text, prefix: false, fields: fields.map((field) => ({ field, boost: 1 })) }],
    rankFields: [],
    facets: [],
  });
  let db: EmbeddedDb;
  let index: SqliteSearchIndex;
  let opened = 0;
  const found = async (text: string, fields = ['name']) => {
    const result = await index.search(query(text, fields), { from: 0, size: 10_000 });
    return result.hits.map((h) => h.urn).sort();
  };
  const suggested = async (text: string) => (await index.autocomplete({ entityTypes: ['dataset'], filter: [], includeRemoved: false, text, fields: [{ field: 'name', boost: 1 }], limit: 100 })).urns.slice().sort();

  beforeEach(async () => {
    db = openDatabase(readThreads ? join(dir, `catalog-${opened++}.db`) : ':memory:');
    index = new SqliteSearchIndex(db, mappings, { readThreads });
    for (let i = 0; i < 20; i++) await index.upsertFields('dataset', urn(i), { urn: urn(i), name: i % 2 ? `alpha table ${i}` : `beta table ${i}` });
  });

  afterEach(async () => {
    await index.close();
    db.close();
  });

  it('sees a document gain, lose and change a word, and a deleted document go', async () => {
    const odd = Array.from({ length: 10 }, (_, k) => urn(2 * k + 1));
    expect(await found('alpha')).toEqual(odd);
    expect(await found('alpha', ['name', 'description'])).toEqual(odd);
    await index.upsertFields('dataset', urn(2), { name: 'alpha now' });
    await index.upsertFields('dataset', urn(1), { name: 'gamma' });
    await index.upsertFields('dataset', urn(4), { description: 'about alpha' });
    await index.deleteDocument('dataset', urn(3));
    await index.upsertFields('dataset', urn(100), { urn: urn(100), name: 'alpha new' });
    const expected = [...odd.filter((u) => u !== urn(1) && u !== urn(3)), urn(2), urn(100)].sort();
    expect(await found('alpha')).toEqual(expected);
    expect(await found('alpha', ['name', 'description'])).toEqual([...expected, urn(4)].sort());
    expect(await found('gamma')).toEqual([urn(1)]);
  });

  it('answers correctly after more changes than it patches, and after the index is cleared', async () => {
    expect(await found('beta')).toHaveLength(10);
    const writes = index.batch();
    for (let i = 0; i < 5000; i++) await writes.upsertFields('dataset', urn(1000 + i), { urn: urn(1000 + i), name: 'beta extra' });
    await writes.upsertFields('dataset', urn(0), { name: 'delta' });
    await writes.flush();
    expect(await found('beta')).toHaveLength(9 + 5000);
    await index.clear();
    expect(await found('beta')).toEqual([]);
  });

  it('keeps autocomplete in step with writes', async () => {
    expect(await suggested('alp')).toHaveLength(10);
    await index.upsertFields('dataset', urn(0), { name: 'the alpine' });
    await index.upsertFields('dataset', urn(1), { name: 'omega' });
    const now = await suggested('alp');
    expect(now).toHaveLength(10);
    expect(now).toContain(urn(0));
    expect(now).not.toContain(urn(1));
  });
});
