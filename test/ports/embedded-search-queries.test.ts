/** The search query contract against the embedded (SQLite) search index, in this thread and on reader threads. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteSearchIndex } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import { planSearch, searchFieldsOf, searchSchemaOf } from '@cairn/search';
import { describeSearchQueriesContract } from './search-queries.contract';

describeSearchQueriesContract('SQLite', async (mappings) => {
  const db = openDatabase(':memory:');
  return { index: new SqliteSearchIndex(db, mappings), close: async () => void db.close() };
});

const dir = mkdtempSync(join(tmpdir(), 'cairn-search-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

describeSearchQueriesContract('SQLite, reader threads', async (mappings) => {
  const db = openDatabase(join(dir, `db-${++files}.sqlite`));
  const index = new SqliteSearchIndex(db, mappings, { readThreads: 2 });
  return {
    index,
    close: async () => {
      await index.close();
      db.close();
    },
  };
});

describe('SQLite search index written by earlier versions', () => {
  const registry = defaultRegistry();
  const schema = searchSchemaOf(registry);
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events,PROD)';
  const ownership = (owner: string) => {
    const { entity } = registry.parseEntityUrn(urn);
    return searchFieldsOf(entity.aspects.get('ownership')!, { owners: [{ owner, type: 'DATAOWNER' }], lastModified: { time: 0, actor: owner } });
  };

  it('forgets a term row that repeats a value row once the value changes', async () => {
    const db = openDatabase(':memory:');
    // A field an earlier version allocated keeps term rows.
    new SqliteSearchIndex(db, schema.mappings());
    db.prepare("INSERT INTO search_fields (entity_type, name) VALUES ('dataset', 'owners')").run();
    const index = new SqliteSearchIndex(db, schema.mappings());
    const owned = async (owner: string) => (await index.search(planSearch(schema, { entityTypes: ['dataset'], input: `owners:${owner}` }), { from: 0, size: 10 })).hits.map((h) => h.urn);
    await index.upsertFields('dataset', urn, { urn, ...ownership('urn:li:corpuser:jdoe') });
    // Earlier versions also wrote a term for every value already in lower case.
    const legacy = db.prepare('INSERT OR IGNORE INTO search_terms (field_id, term, doc_id) SELECT field_id, value, doc_id FROM search_values WHERE value = lower(value)').run();
    expect(legacy.changes).toBeGreaterThan(0);
    expect(await owned('urn:li:corpuser:jdoe')).toEqual([urn]);
    await index.upsertFields('dataset', urn, ownership('urn:li:corpuser:asmith'));
    expect(await owned('urn:li:corpuser:jdoe')).toEqual([]);
    expect(await owned('urn:li:corpuser:asmith')).toEqual([urn]);
    db.close();
  });
});

describe('SQLite search index: ties in URN order', () => {
  afterEach(() => jest.useRealTimers());

  it('orders equal scores by URN, by comparing URNs and by the catalog’s URN ranks alike', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const schema = searchSchemaOf(defaultRegistry());
    const db = openDatabase(':memory:');
    const index = new SqliteSearchIndex(db, schema.mappings());
    const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
    const urns = names.map((n) => `urn:li:dataset:(urn:li:dataPlatform:hive,orders_${n},PROD)`);
    for (const urn of urns) await index.upsertFields('dataset', urn, { urn, name: 'orders' });
    const page = async () => (await index.search(planSearch(schema, { entityTypes: ['dataset'], input: 'orders' }), { from: 1, size: 3 })).hits.map((h) => h.urn);
    const sorted = [...urns].sort();
    expect(await page()).toEqual(sorted.slice(1, 4));
    jest.setSystemTime(1_010_000);
    expect(await page()).toEqual(sorted.slice(1, 4));
    db.close();
  });
});
