import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchFields, SearchMappings, SearchQuery } from '@cairn/ports';
import { openDatabase, type EmbeddedDb } from '../database';
import { SqliteSearchIndex, type SearchIndexOptions } from '../sqlite-search-index';
import { AnalysisShare } from './analysis-share';
import { defersRows } from './search-tables';

const fields = new Map([
  ['name', { type: 'WORD_GRAM' as const, autocomplete: true }],
  ['platform', { type: 'URN' as const, autocomplete: false }],
  ['rowCount', { type: 'COUNT' as const, autocomplete: false }],
]);
const mappings: SearchMappings = new Map([['dataset', fields]]);
const urn = (i: number) => `urn:li:dataset:d${i}`;
// Upper case, so each name has a term row besides its value row.
// A number, so value rows carry their numeric form too.
const doc = (i: number, platform = i % 3): SearchFields => ({ urn: urn(i), name: `Daily Revenue ${i}`, platform: `urn:li:dataPlatform:p${platform}`, rowCount: i * 10 });
const query = (filterPlatform?: number): SearchQuery => ({
  entityTypes: ['dataset'],
  includeRemoved: false,
  terms: [],
  rankFields: [],
  facets: [{ field: 'platform', size: 10 }],
  filter: filterPlatform === undefined ? [] : [[{ fields: ['platform'], condition: 'EQUAL', values: [`urn:li:dataPlatform:p${filterPlatform}`], negated: false }]],
});

/** Every value and term row of the file, in key order. */
function rowsOf(db: EmbeddedDb): unknown[] {
  return [
    ...db.prepare('SELECT field_id, value, doc_id, num FROM search_values ORDER BY field_id, value, doc_id').raw().all(),
    ...db.prepare('SELECT field_id, term, doc_id FROM search_terms ORDER BY field_id, term, doc_id').raw().all(),
  ];
}

/** A rebuild's writes: ten documents, then one moved to another platform and one deleted, in a batch after; then one moved away and back. */
async function rebuildWrites(index: SqliteSearchIndex): Promise<void> {
  const first = index.batch();
  for (let i = 0; i < 10; i++) await first.upsertFields('dataset', urn(i), doc(i));
  await first.flush();
  const second = index.batch();
  await second.upsertFields('dataset', urn(1), { platform: 'urn:li:dataPlatform:p2' });
  await second.deleteDocument('dataset', urn(2));
  await second.flush();
  // A row removed, then added again (urn 4's p1), and one added, then removed (its p2).
  for (const platform of [2, 1]) {
    const next = index.batch();
    await next.upsertFields('dataset', urn(4), { platform: `urn:li:dataPlatform:p${platform}` });
    await next.flush();
  }
}

describe.each<[string, SearchIndexOptions]>([
  ['on the writer thread, queried on a reader thread', { readThreads: 1, writerThread: true }],
  ['in the calling thread', {}],
])('a full rebuild of the embedded search index %s', (_, options) => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-deferred-rows-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const open = () => {
    const db = openDatabase(join(dir, `search-${n++}.db`));
    return { db, index: new SqliteSearchIndex(db, mappings, options) };
  };
  const closeAll = async (...opened: ReturnType<typeof open>[]) => {
    for (const { db, index } of opened) {
      await index.close();
      db.close();
    }
  };

  it('defers value and term rows until rebuilt, then holds exactly the rows of writes not deferred', async () => {
    const plain = open();
    const rebuilt = open();
    try {
      await plain.index.upsertFields('dataset', urn(42), doc(42));
      await plain.index.clear();
      await rebuildWrites(plain.index);

      await rebuilt.index.upsertFields('dataset', urn(42), doc(42));
      await rebuilt.index.clearForRebuild();
      await rebuildWrites(rebuilt.index);
      // Deferred: found by their words, not yet by their values (the facet loads what the file has).
      expect((await rebuilt.index.search(query(), { from: 0, size: 20 })).total).toBe(9);
      expect((await rebuilt.index.search(query(0), { from: 0, size: 20 })).total).toBe(0);
      expect(rowsOf(rebuilt.db)).toEqual([]);

      await rebuilt.index.rebuilt();
      expect(rowsOf(rebuilt.db)).toEqual(rowsOf(plain.db));
      expect(rowsOf(rebuilt.db).length).toBeGreaterThan(27);
      const onP2 = await rebuilt.index.search(query(2), { from: 0, size: 20 });
      expect(onP2.hits.map((h) => h.urn)).toEqual([urn(1), urn(5), urn(8)]);
      // The facet's values were loaded while deferred: read again, not kept.
      expect((await rebuilt.index.search(query(), { from: 0, size: 20 })).facets[0]!.values).toEqual([
        { value: 'urn:li:dataPlatform:p0', count: 4 },
        { value: 'urn:li:dataPlatform:p2', count: 3 },
        { value: 'urn:li:dataPlatform:p1', count: 2 },
      ]);
      // Rows are written in place again: a change after the rebuild replaces its value.
      await rebuilt.index.upsertFields('dataset', urn(5), { platform: 'urn:li:dataPlatform:p0' });
      expect((await rebuilt.index.search(query(2), { from: 0, size: 20 })).hits.map((h) => h.urn)).toEqual([urn(1), urn(8)]);
      await rebuilt.index.rebuilt();
      expect((await rebuilt.index.search(query(0), { from: 0, size: 20 })).total).toBe(5);
    } finally {
      await closeAll(plain, rebuilt);
    }
  });

  it('rebuilds again in the same process, and undoes the merge\'s sort settings', async () => {
    const plain = open();
    const rebuilt = open();
    try {
      await rebuildWrites(plain.index);
      for (let round = 0; round < 2; round++) {
        await rebuilt.index.clearForRebuild();
        await rebuildWrites(rebuilt.index);
        await rebuilt.index.rebuilt();
        expect(rowsOf(rebuilt.db)).toEqual(rowsOf(plain.db));
      }
      // Temporary data in memory again (2), as every connection keeps it, once the merge is done.
      expect(rebuilt.db.pragma('temp_store', { simple: true })).toBe(2);
      // And the connection's own page cache.
      expect(rebuilt.db.pragma('cache_size', { simple: true })).toBe(plain.db.pragma('cache_size', { simple: true }));
    } finally {
      await closeAll(plain, rebuilt);
    }
  });

  it('writes the rows of a rebuild that did not end when the index opens again', async () => {
    const file = join(dir, 'unfinished.db');
    let db = openDatabase(file);
    let index = new SqliteSearchIndex(db, mappings, options);
    try {
      await index.clearForRebuild();
      await rebuildWrites(index);
    } finally {
      await index.close();
      db.close();
    }
    db = openDatabase(file);
    index = new SqliteSearchIndex(db, mappings, options);
    try {
      expect((await index.search(query(0), { from: 0, size: 20 })).hits.map((h) => h.urn)).toEqual([urn(0), urn(3), urn(6), urn(9)]);
      expect(defersRows(db)).toBe(false);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await index.close();
      db.close();
    }
  });

  // Tables of deferred rows as earlier versions left them, from the rows of a file written without deferring.
  const EARLIER_LAYOUTS: [string, string][] = [
    [
      'one text a row',
      `CREATE TABLE search_deferred_rows (
        is_term INTEGER NOT NULL, field_id INTEGER NOT NULL, text TEXT NOT NULL, doc_id INTEGER NOT NULL, num REAL, present INTEGER NOT NULL);
      INSERT INTO search_deferred_rows SELECT 0, field_id, value, doc_id, num, 1 FROM search_values;
      INSERT INTO search_deferred_rows SELECT 1, field_id, term, doc_id, NULL, 1 FROM search_terms;
      INSERT INTO search_deferred_rows SELECT 0, field_id, 'removed later', doc_id, NULL, 1 FROM search_values LIMIT 1;
      INSERT INTO search_deferred_rows SELECT 0, field_id, 'removed later', doc_id, NULL, 0 FROM search_values LIMIT 1;`,
    ],
    [
      'values and terms in rows of their own',
      `CREATE TABLE search_deferred_rows (
        is_term INTEGER NOT NULL, field_id INTEGER NOT NULL, doc_id INTEGER NOT NULL, texts TEXT NOT NULL, nums TEXT, present INTEGER NOT NULL);
      INSERT INTO search_deferred_rows SELECT 0, field_id, doc_id, json_group_array(value), CASE WHEN count(num) THEN json_group_array(num) END, 1 FROM search_values GROUP BY field_id, doc_id;
      INSERT INTO search_deferred_rows SELECT 1, field_id, doc_id, json_group_array(term), NULL, 1 FROM search_terms GROUP BY field_id, doc_id;
      INSERT INTO search_deferred_rows SELECT 1, field_id, doc_id, '["removed later"]', NULL, 1 FROM search_terms LIMIT 1;
      INSERT INTO search_deferred_rows SELECT 1, field_id, doc_id, '["removed later"]', NULL, 0 FROM search_terms LIMIT 1;`,
    ],
  ];

  it.each(EARLIER_LAYOUTS)('writes the rows an earlier version deferred (%s) when the index opens', async (layout, table) => {
    const file = join(dir, `earlier-${layout.replaceAll(' ', '-')}.db`);
    let db = openDatabase(file);
    let index = new SqliteSearchIndex(db, mappings, options);
    await rebuildWrites(index);
    await index.close();
    const expected = rowsOf(db);
    db.exec(`${table}
      DELETE FROM search_values; DELETE FROM search_terms;`);
    db.close();
    db = openDatabase(file);
    index = new SqliteSearchIndex(db, mappings, options);
    try {
      expect(expected.length).toBeGreaterThan(27);
      expect(rowsOf(db)).toEqual(expected);
      expect(defersRows(db)).toBe(false);
    } finally {
      await index.close();
      db.close();
    }
  });
});

describe('a full rebuild on the writer thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-rebuild-analysis-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the sending thread analyse a share of the documents while it runs, and none before or after', async () => {
    const db = openDatabase(join(dir, 'search.db'));
    const index = new SqliteSearchIndex(db, mappings, { writerThread: true });
    const asked = jest.spyOn(AnalysisShare.prototype, 'takesNext');
    const write = async (from: number) => {
      const batch = index.batch();
      for (let i = from; i < from + 30; i++) await batch.upsertFields('dataset', urn(i), doc(i));
      await batch.flush();
    };
    try {
      await write(0);
      expect(asked).not.toHaveBeenCalled();
      await index.clearForRebuild();
      await write(0);
      // One question a document; at the starting share of one half, every other document is analysed here.
      expect(asked).toHaveBeenCalledTimes(30);
      expect(asked.mock.results.filter((r) => r.value === true)).toHaveLength(15);
      await index.rebuilt();
      asked.mockClear();
      await write(30);
      expect(asked).not.toHaveBeenCalled();
      expect((await index.search(query(0), { from: 0, size: 30 })).total).toBe(20);
    } finally {
      asked.mockRestore();
      await index.close();
      db.close();
    }
  });
});
