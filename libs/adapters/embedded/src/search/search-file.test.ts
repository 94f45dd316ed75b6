import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../database';
import { SqliteSearchIndex } from '../sqlite-search-index';
import { acTables, WORD_INDEX_AUTOMERGE } from './search-tables';

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const tables = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'search%'").pluck().all() as string[]).sort();

describe('the search file', () => {
  it("takes over a catalog file's search tables of the earlier layout, which are then dropped", async () => {
    const catalog = openDatabase(join(dir, 'moved-catalog.db'));
    const earlier = new SqliteSearchIndex(catalog, new Map(), { readThreads: 0 });
    await earlier.upsertFields('dataset', urn('a'), { urn: urn('a'), name: 'alpha orders', tags: ['urn:li:tag:pii'] });
    await earlier.upsertFields('dataset', urn('b'), { urn: urn('b'), name: 'beta orders', removed: true });
    await earlier.close();
    expect(tables(catalog)).toContain('search_docs');

    const searchDb = openDatabase(join(dir, 'moved-search.db'));
    const index = new SqliteSearchIndex(searchDb, new Map(), { readThreads: 1, writerThread: true, movingFrom: catalog });
    try {
      expect(tables(catalog)).toEqual([]);
      expect(await index.getDocument('dataset', urn('a'))).toEqual({ urn: urn('a'), name: 'alpha orders', tags: ['urn:li:tag:pii'] });
      expect(await index.countByType(selection)).toEqual({ dataset: 1 });
      const found = await index.search(
        {
          ...selection,
          filter: [[{ fields: ['tags'], condition: 'EQUAL', values: ['urn:li:tag:pii'], negated: false }]],
          terms: [{ kind: 'words', text: 'alpha', prefix: false, fields: [{ field: 'name', boost: 1 }] }],
          rankFields: [],
          facets: [],
        },
        { from: 0, size: 10 },
      );
      expect(found.hits.map((h) => h.urn)).toEqual([urn('a')]);
    } finally {
      await index.close();
      searchDb.close();
      catalog.close();
    }
  });

  it('answers prefix queries from a word index with prefix indexes (the earlier layout) and from one without, which a rebuild makes', async () => {
    const file = join(dir, 'prefixes-search.db');
    const db = openDatabase(file);
    db.exec("CREATE VIRTUAL TABLE search_fts USING fts5(words, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2', prefix='2 3 4')");
    const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1, writerThread: true });
    const wordIndex = () => db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_fts'").pluck().get() as string;
    const prefixed = async (text: string) =>
      (
        await index.search(
          { ...selection, terms: [{ kind: 'words', text, prefix: true, fields: [{ field: 'name', boost: 1 }] }], rankFields: [], facets: [] },
          { from: 0, size: 10 },
        )
      ).hits.map((h) => h.urn);
    try {
      await index.upsertFields('dataset', urn('a'), { urn: urn('a'), name: 'alpha orders' });
      expect(await prefixed('al')).toEqual([urn('a')]);
      expect(wordIndex()).toContain("prefix='2 3 4'");

      await index.clearForRebuild();
      await index.upsertFields('dataset', urn('b'), { urn: urn('b'), name: 'beta orders' });
      await index.rebuilt();
      expect(wordIndex()).not.toContain('prefix');
      // The reader thread opened the file before the rebuild replaced its word index.
      expect(await prefixed('be')).toEqual([urn('b')]);
      expect(await prefixed('al')).toEqual([]);
      expect(await prefixed('ord')).toEqual([urn('b')]);
    } finally {
      await index.close();
      db.close();
    }
  });

  it('has its large word indexes merge segments at WORD_INDEX_AUTOMERGE, from the start, after a rebuild and in a file of an earlier version; autocomplete indexes keep the default', async () => {
    const file = join(dir, 'automerge-search.db');
    const earlier = openDatabase(file);
    earlier.exec("CREATE VIRTUAL TABLE search_fts USING fts5(words, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')");
    earlier.close();
    const db = openDatabase(file);
    const mappings = new Map([['dataset', new Map([['name', { type: 'WORD_GRAM' as const, autocomplete: true }]])]]);
    const index = new SqliteSearchIndex(db, mappings, { readThreads: 0, writerThread: true });
    const automerge = (table: string) => db.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).pluck().get();
    try {
      expect(automerge('search_fts')).toBe(WORD_INDEX_AUTOMERGE);
      expect(automerge('search_value_fts')).toBe(WORD_INDEX_AUTOMERGE);
      await index.clearForRebuild();
      await index.upsertFields('dataset', urn('a'), { urn: urn('a'), name: 'alpha orders' });
      await index.rebuilt();
      expect(automerge('search_fts')).toBe(WORD_INDEX_AUTOMERGE);
      expect(automerge('search_value_fts')).toBe(WORD_INDEX_AUTOMERGE);
      const autocomplete = acTables(db);
      expect(autocomplete.length).toBeGreaterThan(0);
      for (const table of autocomplete) expect(automerge(table)).toBeUndefined();
    } finally {
      await index.close();
      db.close();
    }
  });
});
