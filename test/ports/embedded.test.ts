/** The port contracts against the embedded (SQLite) adapters, each case on a fresh temp-file database. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openDatabase,
  SqliteAspectStore,
  SqliteEventLog,
  SqliteGraphIndex,
  SqliteSearchIndex,
  SqliteTimeseriesIndex,
  type EmbeddedDb,
} from '@cairn/adapter-embedded';
import { describeAspectStoreContract } from './aspect-store.contract';
import { describeEventLogContract, waitFor } from './event-log.contract';
import { describeGraphIndexContract } from './graph-index.contract';
import { describeSearchIndexContract } from './search-index.contract';
import { describeTimeseriesIndexContract } from './timeseries-index.contract';

const dir = mkdtempSync(join(tmpdir(), 'cairn-ports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function freshDb(): { db: EmbeddedDb; file: string; close(): Promise<void> } {
  const file = join(dir, `db-${++n}.sqlite`);
  const db = openDatabase(file);
  return { db, file, close: async () => void db.close() };
}

describeAspectStoreContract('SQLite', async () => {
  const { db, close } = freshDb();
  const store = new SqliteAspectStore(db);
  return { store, close: async () => (await store.close(), await close()) };
});

describeEventLogContract(
  'SQLite',
  async () => {
    const { db, close } = freshDb();
    return { log: new SqliteEventLog<{ label: string }>(db, 'test-topic'), close };
  },
  { unstorable: { label: 'unstorable', big: 1n } as unknown as { label: string } },
);

describeSearchIndexContract('SQLite', async () => {
  const { db, close } = freshDb();
  return { index: new SqliteSearchIndex(db), close };
});

describeSearchIndexContract('SQLite, reader threads', async () => {
  const { db, close } = freshDb();
  const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1 });
  return { index, close: async () => (await index.close(), await close()) };
});

describe('SQLite catalog file: one owner', () => {
  it('refuses a second opening until the first is closed', () => {
    const file = join(dir, 'owned.sqlite');
    const first = openDatabase(file);
    expect(() => openDatabase(file)).toThrow(/in use by another process/);
    first.close();
    const again = openDatabase(file);
    again.close();
  });

  it('gives the directory up when the catalog file cannot be opened', () => {
    const file = join(dir, 'unopenable.sqlite');
    mkdirSync(file);
    expect(() => openDatabase(file)).toThrow();
    rmSync(file, { recursive: true });
    const opened = openDatabase(file);
    opened.close();
  });
});

describeGraphIndexContract('SQLite', async () => {
  const { db, close } = freshDb();
  return { graph: new SqliteGraphIndex(db), close };
});

describeTimeseriesIndexContract('SQLite', async () => {
  const { db, close } = freshDb();
  return { index: new SqliteTimeseriesIndex(db), close };
});

describe('SQLite adapters: durability across reopen', () => {
  it('keeps aspects, log records and committed offsets in the file', async () => {
    const file = join(dir, 'reopen.sqlite');
    let db = openDatabase(file);
    const store = new SqliteAspectStore(db);
    await store.write({ urn: 'urn:li:corpuser:a', aspect: 'status', metadata: '{"removed":false}', systemMetadata: {}, createdOn: 1, createdBy: 'urn:li:corpuser:x', proposalId: '0:1' });
    let log = new SqliteEventLog<{ label: string }>(db, 'topic');
    const ids = await log.append([{ key: 'k', value: { label: 'a' } }, { key: 'k', value: { label: 'b' } }]);
    const seen: string[] = [];
    const consumer = log.consume('g', async (batch) => {
      seen.push(...batch.map((r) => r.value.label));
    });
    await waitFor(() => seen.length === 2, 5000);
    await consumer.stop();
    db.close();

    db = openDatabase(file);
    try {
      expect(await new SqliteAspectStore(db).exists('urn:li:corpuser:a')).toBe(true);
      log = new SqliteEventLog<{ label: string }>(db, 'topic');
      expect(await log.lag('g')).toBe(0);
      const [next] = await log.append([{ key: 'k', value: { label: 'c' } }]);
      expect(Number(next.split(':')[1])).toBeGreaterThan(Number(ids[1].split(':')[1]));
      expect(await log.lag('g')).toBe(1);
      expect(await log.lag('new-group')).toBe(3);
    } finally {
      db.close();
    }
  });
});

describe('SQLite search index: rows follow the documents', () => {
  const rowCounts = (db: EmbeddedDb) => ({
    values: (db.prepare('SELECT COUNT(*) AS n FROM search_values').get() as { n: number }).n,
    terms: (db.prepare('SELECT COUNT(*) AS n FROM search_terms').get() as { n: number }).n,
  });
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,rows,PROD)';

  it('replaces a changed field’s values and terms, and leaves nothing of a deleted document', async () => {
    const { db, close } = freshDb();
    try {
      const index = new SqliteSearchIndex(db);
      await index.upsertFields('dataset', urn, { urn, name: 'Orders', tags: ['urn:li:tag:A', 'urn:li:tag:B'] });
      const first = rowCounts(db);
      await index.upsertFields('dataset', urn, { tags: ['urn:li:tag:C'] });
      const afterChange = rowCounts(db);
      expect(afterChange.values).toBe(first.values - 1);
      expect(afterChange.terms).toBeLessThan(first.terms);
      expect(db.prepare("SELECT COUNT(*) AS n FROM search_terms WHERE term = 'urn:li:tag:a'").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM search_values WHERE value = 'urn:li:tag:C'").get()).toEqual({ n: 1 });
      await index.deleteDocument('dataset', urn);
      expect(rowCounts(db)).toEqual({ values: 0, terms: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM search_fts WHERE search_fts MATCH 'orders'").get()).toEqual({ n: 0 });
    } finally {
      await close();
    }
  });
});
