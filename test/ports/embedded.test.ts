/** The port contracts against the embedded (SQLite) adapters, each case on a fresh temp-file database. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  changeLogsBesideAspects,
  openDatabase,
  openReadConnection,
  SqliteAspectStore,
  SqliteEventLog,
  SqliteGraphIndex,
  SqliteSearchIndex,
  SqliteTimeseriesIndex,
  topicTable,
  type EmbeddedDb,
} from '@cairn/adapter-embedded';
import type { MetadataChangeLog } from '@cairn/events';
import type { Consumer, LogRecord } from '@cairn/ports';
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

describeSearchIndexContract('SQLite, writer thread (queries in this thread)', async () => {
  const { db, close } = freshDb();
  const index = new SqliteSearchIndex(db, new Map(), { readThreads: 0, writerThread: true });
  return { index, close: async () => (await index.close(), await close()) };
});

describeSearchIndexContract('SQLite, writer and reader threads', async () => {
  const { db, close } = freshDb();
  const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1, writerThread: true });
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

describe('SQLite aspect store: a catalog file of the layout keyed WITHOUT ROWID', () => {
  it('rewrites the table keyed by rowid as it opens, every version kept, and goes on versioning', async () => {
    const { db, close } = freshDb();
    try {
      db.exec(`
        CREATE TABLE metadata_aspect_v2 (
          urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL,
          metadata TEXT NOT NULL, system_metadata TEXT, created_on INTEGER NOT NULL, created_by TEXT NOT NULL,
          proposal_id TEXT,
          PRIMARY KEY (urn, aspect, version)) WITHOUT ROWID;
        CREATE INDEX metadata_aspect_v2_latest ON metadata_aspect_v2 (aspect, urn) WHERE version = 0;
        INSERT INTO metadata_aspect_v2 VALUES
          ('urn:li:corpuser:a', 'status', 0, '{"removed":true}', '{"runId":"r2"}', 2, 'urn:li:corpuser:x', '0:2@2'),
          ('urn:li:corpuser:a', 'status', 1, '{"removed":false}', NULL, 1, 'urn:li:corpuser:x', '0:1@1'),
          ('urn:li:corpuser:b', 'corpUserKey', 0, '{"username":"b"}', NULL, 3, 'urn:li:corpuser:x', NULL);
      `);
      const store = new SqliteAspectStore(db);
      const table = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'metadata_aspect_v2'").pluck().get() as string;
      expect(table).not.toMatch(/WITHOUT ROWID/i);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'metadata_aspect_v2%' ORDER BY name").pluck().all()).toEqual([
        'metadata_aspect_v2',
        'metadata_aspect_v2_key',
        'metadata_aspect_v2_key_aspects',
      ]);
      expect(await store.getVersion('urn:li:corpuser:a', 'status', 1)).toMatchObject({ metadata: '{"removed":false}', createdOn: 1 });
      expect((await store.getLatest(['urn:li:corpuser:a', 'urn:li:corpuser:b'])).map((r) => [r.urn, r.aspect, r.version, r.metadata, r.systemMetadata])).toEqual([
        ['urn:li:corpuser:a', 'status', 0, '{"removed":true}', { runId: 'r2' }],
        ['urn:li:corpuser:b', 'corpUserKey', 0, '{"username":"b"}', undefined],
      ]);
      const outcome = await store.write({ urn: 'urn:li:corpuser:a', aspect: 'status', metadata: '{"removed":false}', systemMetadata: {}, createdOn: 4, createdBy: 'urn:li:corpuser:x', proposalId: '0:4@4' });
      expect(outcome.kind).toBe('updated');
      expect(await store.getVersion('urn:li:corpuser:a', 'status', 2)).toMatchObject({ metadata: '{"removed":true}', createdOn: 2 });
      expect(() => db.prepare("INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, created_on, created_by) VALUES ('urn:li:corpuser:b', 'corpUserKey', 0, '{}', 5, 'x')").run()).toThrow(/UNIQUE/);
      new SqliteAspectStore(db);
      expect(await store.countLatest({})).toBe(2);
    } finally {
      await close();
    }
  });
});

describe('SQLite aspect store: the index of latest rows by aspect', () => {
  const row = (urn: string, aspect: string, version: number) => `('${urn}', '${aspect}', ${version}, '{}', NULL, 1, 'urn:li:corpuser:x', NULL)`;
  const planOf = (db: EmbeddedDb, sql: string, ...params: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');

  it('keeps only key aspects, drops the index of every latest row a file of the earlier layout has, and answers scans by aspect alike', async () => {
    const { db, close } = freshDb();
    try {
      db.exec(`
        CREATE TABLE metadata_aspect_v2 (id INTEGER PRIMARY KEY, urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL,
          metadata TEXT NOT NULL, system_metadata TEXT, created_on INTEGER NOT NULL, created_by TEXT NOT NULL, proposal_id TEXT);
        CREATE UNIQUE INDEX metadata_aspect_v2_key ON metadata_aspect_v2 (urn, aspect, version);
        CREATE INDEX metadata_aspect_v2_latest ON metadata_aspect_v2 (aspect, urn) WHERE version = 0;
        INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, system_metadata, created_on, created_by, proposal_id) VALUES
          ${row('urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)', 'datasetKey', 0)}, ${row('urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)', 'status', 0)},
          ${row('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'datasetKey', 0)}, ${row('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'status', 1)},
          ${row('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'status', 0)}, ${row('urn:li:corpuser:c', 'corpUserKey', 0)}, ${row('urn:li:corpuser:c', 'status', 0)};
      `);
      const store = new SqliteAspectStore(db);
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'metadata_aspect_v2' ORDER BY name").pluck().all();
      expect(indexes).toEqual(['metadata_aspect_v2_key', 'metadata_aspect_v2_key_aspects']);
      // Only latest key aspects have entries: an ingest's other writes leave it alone.
      expect(db.prepare("SELECT aspect, urn FROM metadata_aspect_v2 INDEXED BY metadata_aspect_v2_key_aspects WHERE version = 0 AND aspect GLOB '*Key'").raw().all()).toEqual([
        ['corpUserKey', 'urn:li:corpuser:c'],
        ['datasetKey', 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'],
        ['datasetKey', 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)'],
      ]);
      const urns = async (scan: Parameters<SqliteAspectStore['scanLatest']>[0]) => (await store.scanLatest(scan)).map((r) => r.urn);
      expect(await urns({ entityType: 'dataset', aspect: 'datasetKey', start: 0, limit: 10 })).toEqual([
        'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)',
      ]);
      expect(await urns({ aspect: 'status', start: 1, limit: 10 })).toEqual(['urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)']);
      expect(await store.countLatest({ aspect: 'status' })).toBe(3);
      expect(await store.countLatest({ aspect: 'datasetKey' })).toBe(2);
      // Listing an entity type's URNs, and counting them, read the key aspects' index: the store's own queries, as it runs them.
      const ran: { sql: string; params: unknown[] }[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        const statement = prepare(sql);
        for (const method of ['all', 'get'] as const) {
          const run = statement[method].bind(statement) as (...params: unknown[]) => unknown;
          (statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => (ran.push({ sql, params }), run(...params));
        }
        return statement;
      }) as typeof db.prepare;
      const listing = { entityType: 'dataset', aspect: 'datasetKey' };
      await store.scanLatest({ ...listing, start: 0, limit: 10 });
      await store.countLatest(listing);
      db.prepare = prepare;
      expect(ran).toHaveLength(2);
      for (const { sql, params } of ran) expect(planOf(db, sql, ...params)).toMatch(/INDEX metadata_aspect_v2_key_aspects \(aspect=\? AND urn>\? AND urn<\?\)/);
      expect(planOf(db, ran[0]!.sql, ...ran[0]!.params)).not.toMatch(/TEMP B-TREE/);
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: a catalog file of the layout before each topic had its table', () => {
  it('moves every topic\'s records and positions over as it opens them, then drops the shared table', async () => {
    const { db, close } = freshDb();
    try {
      db.exec(`
        CREATE TABLE log_records (
          topic TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, ts INTEGER NOT NULL, headers TEXT,
          PRIMARY KEY (topic, seq)) WITHOUT ROWID;
        CREATE TABLE log_offsets (topic TEXT NOT NULL, grp TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (topic, grp)) WITHOUT ROWID;
        INSERT INTO log_records VALUES ('a', 1, 'k1', '{"label":"a1"}', 1, NULL), ('a', 2, 'k2', '{"label":"a2"}', 2, '{"h":"v"}'),
          ('b', 7, 'k7', '{"label":"b7"}', 3, NULL);
        INSERT INTO log_offsets VALUES ('a', 'g', 1);
      `);
      const a = new SqliteEventLog<{ label: string }>(db, 'a');
      expect(await a.progress('g')).toEqual({ lag: 1, committed: 1 });
      const seen: LogRecordSeen[] = [];
      const consumer = a.consume('g', async (batch) => void seen.push(...batch.map((r) => ({ id: r.id, key: r.key, label: r.value.label, headers: r.headers }))));
      await waitFor(() => seen.length === 1, 5000);
      await consumer.stop();
      expect(seen).toEqual([{ id: '0:2', key: 'k2', label: 'a2', headers: { h: 'v' } }]);
      expect(await a.append([{ key: 'k3', value: { label: 'a3' } }])).toEqual(['0:3']);
      const tables = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'log%' ORDER BY name").pluck().all();
      expect(tables()).toEqual(['log_a', 'log_offsets', 'log_records']);

      const b = new SqliteEventLog<{ label: string }>(db, 'b');
      expect(await b.lag('new-group')).toBe(7);
      expect(await b.append([{ key: 'k8', value: { label: 'b8' } }])).toEqual(['0:8']);
      expect(tables()).toEqual(['log_a', 'log_b', 'log_offsets']);
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: change logs stored beside their aspects', () => {
  it('keeps the aspect value out of the table, hands the appended change log to a consumer here, and one after a restart reads the latest row', async () => {
    const { db, close } = freshDb();
    try {
      const store = new SqliteAspectStore(db);
      const form = changeLogsBesideAspects((urn, aspect) => store.latestMetadata(urn, aspect));
      const urn = 'urn:li:corpuser:a';
      const write = (value: string, n: number) =>
        store.write({ urn, aspect: 'corpUserInfo', metadata: value, systemMetadata: {}, createdOn: n, createdBy: 'urn:li:corpuser:x', proposalId: `0:${n}@${n}` });
      const changeLog = (value: string): MetadataChangeLog => ({
        entityType: 'corpuser',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'corpUserInfo',
        aspect: { value, contentType: 'application/json' },
      });
      const first = '{"active":true,"displayName":"First"}';
      const second = '{"active":true,"displayName":"Second"}';
      let log = new SqliteEventLog<MetadataChangeLog>(db, 'changes', form);
      const seen: (string | undefined)[] = [];
      const consume = (from: SqliteEventLog<MetadataChangeLog>, group: string) =>
        from.consume(group, async (batch) => void seen.push(...batch.map((r) => r.value.aspect?.value)));
      let consumer = consume(log, 'here');
      await write(first, 1);
      const appended = changeLog(first);
      await log.append([{ key: urn, value: appended }]);
      await waitFor(() => seen.length === 1, 5000);
      await consumer.stop();
      expect(seen).toEqual([first]);
      const rows = db.prepare(`SELECT value FROM ${topicTable('changes')}`).pluck().all() as string[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).not.toContain('First');

      await write(second, 2);
      await log.append([{ key: urn, value: changeLog(second) }]);
      log = new SqliteEventLog<MetadataChangeLog>(db, 'changes', form);
      seen.length = 0;
      consumer = consume(log, 'after-restart');
      await waitFor(() => seen.length === 2, 5000);
      await consumer.stop();
      expect(seen).toEqual([second, second]);

      await store.deleteAspect(urn, 'corpUserInfo');
      seen.length = 0;
      consumer = consume(new SqliteEventLog<MetadataChangeLog>(db, 'changes', form), 'after-delete');
      await log.append([{ key: urn, value: { entityType: 'corpuser', entityUrn: urn, changeType: 'DELETE', aspectName: 'corpUserInfo' } }]);
      await waitFor(() => seen.length === 1, 5000);
      await consumer.stop();
      expect(seen).toEqual([undefined]);
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: appends of one turn to the topics of a file', () => {
  it('commit together: one that cannot be written fails every append of its turn, and nothing of them is stored', async () => {
    const { db, close } = freshDb();
    try {
      const a = new SqliteEventLog<unknown>(db, 'a');
      const b = new SqliteEventLog<unknown>(db, 'b');
      const both = await Promise.allSettled([a.append([{ key: 'k', value: { n: 1 } }]), b.append([{ key: 'k', value: { n: 10n } }])]);
      expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(db.prepare(`SELECT COUNT(*) FROM ${topicTable('a')}`).pluck().get()).toBe(0);
      // The failed turn took no positions: the next appends start where the log was.
      expect(await Promise.all([a.append([{ key: 'k', value: { n: 2 } }]), b.append([{ key: 'k', value: { n: 20 } }])])).toEqual([['0:1'], ['0:1']]);
      expect(db.prepare(`SELECT value FROM ${topicTable('b')}`).pluck().all()).toEqual(['{"n":20}']);
    } finally {
      await close();
    }
  });
});

type LogRecordSeen = { id: string; key: string; label: string; headers: Record<string, string> };

type PaddedValue = { label: string; pad?: string };

/** A consumer whose first batch (one small record, appended here) holds it until `release`, while larger ones are appended. */
async function gatedConsumer(log: SqliteEventLog<PaddedValue>): Promise<{ seen: PaddedValue[]; release: () => void; consumer: Consumer }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen: PaddedValue[] = [];
  const consumer = log.consume('g', async (batch) => {
    if (batch[0]?.value.label === 'gate') await held;
    seen.push(...batch.map((r) => r.value));
  });
  await log.append([{ key: 'k', value: { label: 'gate' } }]);
  return { seen, release, consumer };
}

/** Ten values of a million characters each, more than the log keeps of appended values for its consumers. */
const largeValues = (prefix: string): PaddedValue[] => Array.from({ length: 10 }, (_, i) => ({ label: `${prefix}${i}`, pad: 'x'.repeat(1_000_000) }));

describe('SQLite event log: values appended in this process', () => {
  type Value = PaddedValue;

  it('reach a consumer here as the appended objects; values it did not keep are parsed from the table', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<Value>(db, 'kept');
      const before = { label: 'before any consumer' };
      await log.append([{ key: 'k', value: before }]);
      const seen: Value[] = [];
      const consumer = log.consume('g', async (batch) => {
        seen.push(...batch.map((r) => r.value));
      });
      const appended = [{ label: 'a' }, { label: 'b' }];
      await log.append(appended.map((value) => ({ key: 'k', value })));
      await waitFor(() => seen.length === 3, 5000);
      await consumer.stop();

      expect(seen).toEqual([before, ...appended]);
      expect(seen[0]).not.toBe(before);
      expect(seen[1]).toBe(appended[0]);
      expect(seen[2]).toBe(appended[1]);
    } finally {
      await close();
    }
  });

  it('reach a consumer here as the same records a consumer after a restart reads from the table', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<Value>(db, 'kept-records');
      const here: LogRecord<Value>[] = [];
      const consumer = log.consume('here', async (batch) => {
        here.push(...batch);
      });
      await log.append([{ key: 'k1', value: { label: 'a' }, headers: { actor: 'urn:li:corpuser:one' } }]);
      await log.append([{ key: 'k2', value: { label: 'b' } }]);
      await waitFor(() => here.length === 2, 5000);
      await consumer.stop();

      const reopened = new SqliteEventLog<Value>(db, 'kept-records');
      const fromTable: LogRecord<Value>[] = [];
      const later = reopened.consume('later', async (batch) => {
        fromTable.push(...batch);
      });
      await waitFor(() => fromTable.length === 2, 5000);
      await later.stop();

      expect(here.map((r) => r.headers)).toEqual([{ actor: 'urn:li:corpuser:one' }, {}]);
      expect(fromTable).toEqual(here);
      expect(fromTable[0]!.value).not.toBe(here[0]!.value);
    } finally {
      await close();
    }
  });

  it('keep a bounded amount: the oldest beyond it are parsed again', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<Value>(db, 'bounded');
      const { seen, release, consumer } = await gatedConsumer(log);
      const appended = largeValues('v');
      for (const value of appended) await log.append([{ key: 'k', value }]);
      release();
      await waitFor(() => seen.length === 11, 10_000);
      await consumer.stop();

      expect(seen.map((v) => v.label)).toEqual(['gate', ...appended.map((v) => v.label)]);
      // Compared as booleans: a failure would otherwise print ten million characters.
      expect(seen[1] === appended[0]).toBe(false);
      expect(seen[1]!.pad === appended[0]!.pad).toBe(true);
      expect(seen[10] === appended[9]).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: reproducible records (a rebuild\'s change logs)', () => {
  type Value = PaddedValue;
  const storedValues = (db: ReturnType<typeof freshDb>['db'], topic: string) =>
    db.prepare(`SELECT value FROM ${topicTable(topic)} ORDER BY seq`).pluck().all() as string[];

  it('reach the consumers here from memory, however large, and are not stored', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<Value>(db, 'rebuild');
      const { seen, release, consumer } = await gatedConsumer(log);
      // More than the log keeps of stored values for its consumers: none may be dropped.
      const appended = largeValues('r');
      for (const value of appended) await log.append([{ key: 'k', value }], { reproducible: true });
      expect(storedValues(db, 'rebuild').slice(1)).toEqual(Array(10).fill(''));
      release();
      await waitFor(() => seen.length === 11, 10_000);
      await consumer.stop();
      expect(seen.slice(1).every((v, i) => v === appended[i])).toBe(true);
    } finally {
      await close();
    }
  });

  it('are stored while a group with a position consumes elsewhere, and skipped after a restart when they were not', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<Value>(db, 'restart');
      const here = log.consume('here', async () => undefined);
      const position = db.prepare("INSERT INTO log_offsets (topic, grp, seq) VALUES ('restart', 'elsewhere', 0)");
      position.run();
      await log.append([{ key: 'k', value: { label: 'stored' } }], { reproducible: true });
      db.prepare("DELETE FROM log_offsets WHERE topic = 'restart' AND grp = 'elsewhere'").run();
      await log.append([{ key: 'k', value: { label: 'unstored' } }], { reproducible: true });
      await log.append([{ key: 'k', value: { label: 'after' } }]);
      await here.stop();
      expect(storedValues(db, 'restart')).toEqual([JSON.stringify({ label: 'stored' }), '', JSON.stringify({ label: 'after' })]);

      // The process restarts: the unstored value went with it.
      const restarted = new SqliteEventLog<Value>(db, 'restart');
      const seen: string[] = [];
      const consumer = restarted.consume('fresh', async (batch) => void seen.push(...batch.map((r) => r.value.label)));
      await waitFor(() => seen.length === 2, 5000);
      await consumer.stop();
      expect(seen).toEqual(['stored', 'after']);
      expect((await restarted.progress('fresh')).lag).toBe(0);
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: batches taken before they are durable', () => {
  it('delivers later batches while earlier ones become durable (three at most), and commits them in order', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<{ label: string }>(db, 'taken');
      await log.append(['a', 'b', 'c', 'd'].map((label) => ({ key: 'k', value: { label } })));
      const seen: string[] = [];
      const release = new Map<string, () => void>();
      const consumer = log.consume(
        'g',
        async (batch) => {
          const label = batch[0].value.label;
          seen.push(label);
          return { durable: new Promise<void>((resolve) => release.set(label, resolve)) };
        },
        { maxBatch: 1 },
      );
      await waitFor(() => seen.length === 3, 5000, 'three batches before the first is durable');
      await new Promise((r) => setTimeout(r, 30));
      expect(seen).toEqual(['a', 'b', 'c']);
      expect(await log.lag('g')).toBe(4);
      // Later batches durable first: nothing is committed before the first is.
      release.get('b')!();
      release.get('c')!();
      await new Promise((r) => setTimeout(r, 30));
      expect(await log.lag('g')).toBe(4);
      release.get('a')!();
      await waitFor(async () => (await log.lag('g')) === 1 && seen.length === 4, 5000, 'three committed, the fourth delivered');
      release.get('d')!();
      await waitFor(async () => (await log.lag('g')) === 0, 5000, 'the fourth committed');
      await consumer.stop();
      expect(seen).toEqual(['a', 'b', 'c', 'd']);
    } finally {
      await close();
    }
  });

  it('commits a batch handled at once only after the earlier batches taken', async () => {
    const { db, close } = freshDb();
    try {
      const log = new SqliteEventLog<{ label: string }>(db, 'mixed');
      await log.append(['a', 'b'].map((label) => ({ key: 'k', value: { label } })));
      const seen: string[] = [];
      let release!: () => void;
      const consumer = log.consume(
        'g',
        async (batch) => {
          seen.push(batch[0].value.label);
          if (batch[0].value.label === 'a') return { durable: new Promise<void>((resolve) => (release = resolve)) };
        },
        { maxBatch: 1 },
      );
      await waitFor(() => seen.length === 2, 5000, 'both batches');
      await new Promise((r) => setTimeout(r, 30));
      expect(await log.lag('g')).toBe(2);
      release();
      await waitFor(async () => (await log.lag('g')) === 0, 5000, 'both committed');
      await consumer.stop();
    } finally {
      await close();
    }
  });
});

describe('SQLite event log: a consumer taking appends inside their transactions (inline)', () => {
  /** An inline consumer of `proposals` that writes a row of its own and appends to `changes` for each record. */
  function mirror(db: EmbeddedDb, proposals: SqliteEventLog<{ label: string }>, changes: SqliteEventLog<{ label: string }>, fail: (label: string) => boolean) {
    db.exec('CREATE TABLE IF NOT EXISTS mirrored (label TEXT)');
    const insert = db.prepare('INSERT INTO mirrored (label) VALUES (?)');
    const deliveries: { labels: string[]; inline: boolean }[] = [];
    const consumer = proposals.consume(
      'mirror',
      async (batch, delivery) => {
        deliveries.push({ labels: batch.map((r) => r.value.label), inline: delivery?.inline === true });
        for (const r of batch) insert.run(r.value.label);
        const appended = changes.append(batch.map((r) => ({ key: r.key, value: { label: `changed ${r.value.label}` } })));
        // Refused, this append fails with the handler's writes.
        appended.catch(() => undefined);
        if (batch.some((r) => fail(r.value.label)) && delivery?.inline) throw new Error('refused inside the append');
        return { durable: appended.then(() => undefined) };
      },
      { inline: true },
    );
    const mirrored = () => db.prepare('SELECT label FROM mirrored ORDER BY rowid').pluck().all() as string[];
    return { deliveries, consumer, mirrored };
  }

  it('reads its backlog first, then takes each append in its transaction, its writes and appends and position committed with it', async () => {
    const { db, file, close } = freshDb();
    try {
      const proposals = new SqliteEventLog<{ label: string }>(db, 'proposals');
      const changes = new SqliteEventLog<{ label: string }>(db, 'changes');
      await proposals.append([{ key: 'k', value: { label: 'backlog' } }]);
      const { deliveries, consumer, mirrored } = mirror(db, proposals, changes, () => false);
      await waitFor(async () => (await proposals.lag('mirror')) === 0, 5000, 'the backlog');
      await new Promise((r) => setTimeout(r, 20));
      await proposals.append([{ key: 'k', value: { label: 'a' } }]);
      // Committed once the append resolves: nothing is left for a later commit of the consumer's.
      const other = openReadConnection(file);
      try {
        expect(other.prepare('SELECT label FROM mirrored ORDER BY rowid').pluck().all()).toEqual(['backlog', 'a']);
        expect(other.prepare("SELECT seq FROM log_offsets WHERE topic = 'proposals' AND grp = 'mirror'").pluck().get()).toBe(2);
        expect(other.prepare(`SELECT value FROM ${topicTable('changes')} ORDER BY seq`).pluck().all()).toEqual(['{"label":"changed backlog"}', '{"label":"changed a"}']);
        // Taken inside its transaction by the topic's only group, a record's row needs no value.
        expect(other.prepare(`SELECT value FROM ${topicTable('proposals')} ORDER BY seq`).pluck().all()).toEqual(['{"label":"backlog"}', '']);
      } finally {
        other.close();
      }
      expect(deliveries).toEqual([
        { labels: ['backlog'], inline: false },
        { labels: ['a'], inline: true },
      ]);
      await consumer.stop();
      expect(mirrored()).toEqual(['backlog', 'a']);
    } finally {
      await close();
    }
  });

  it('has what a handler that throws inside wrote and appended undone, keeps the append, and gets the records again outside', async () => {
    const { db, close } = freshDb();
    try {
      const proposals = new SqliteEventLog<{ label: string }>(db, 'proposals');
      const changes = new SqliteEventLog<{ label: string }>(db, 'changes');
      const { deliveries, consumer, mirrored } = mirror(db, proposals, changes, (label) => label === 'refused');
      await new Promise((r) => setTimeout(r, 20));
      await proposals.append([{ key: 'k', value: { label: 'ok' } }]);
      expect(await proposals.append([{ key: 'k', value: { label: 'refused' } }])).toEqual(['0:2']);
      await waitFor(async () => (await proposals.lag('mirror')) === 0, 5000, 'the refused record handled again');
      // Once read again it goes inline with the next append.
      await proposals.append([{ key: 'k', value: { label: 'after' } }]);
      await consumer.stop();
      expect(deliveries).toEqual([
        { labels: ['ok'], inline: true },
        { labels: ['refused'], inline: true },
        { labels: ['refused'], inline: false },
        { labels: ['after'], inline: true },
      ]);
      expect(mirrored()).toEqual(['ok', 'refused', 'after']);
      // The refused record's row holds its value after all: it was read again from there. (The first
      // append came before the group had a position in the file, so it kept its value too.)
      expect(db.prepare(`SELECT value FROM ${topicTable('proposals')} ORDER BY seq`).pluck().all()).toEqual(['{"label":"ok"}', '{"label":"refused"}', '']);
      expect(db.prepare(`SELECT seq, value FROM ${topicTable('changes')} ORDER BY seq`).all()).toEqual([
        { seq: 1, value: '{"label":"changed ok"}' },
        { seq: 2, value: '{"label":"changed refused"}' },
        { seq: 3, value: '{"label":"changed after"}' },
      ]);
    } finally {
      await close();
    }
  });
});

describe('SQLite search index: rows follow the documents', () => {
  const rowCounts = (db: EmbeddedDb) => ({
    values: (db.prepare('SELECT COUNT(*) AS n FROM search_values').get() as { n: number }).n,
    terms: (db.prepare('SELECT COUNT(*) AS n FROM search_terms').get() as { n: number }).n,
    tokens: (db.prepare('SELECT COUNT(*) AS n FROM search_value_fts').get() as { n: number }).n,
  });
  /** Rows holding a lookup term (a token `w` and its UTF-8 hexadecimal, `value-tokens.ts`). */
  const termRows = (db: EmbeddedDb, term: string) =>
    db.prepare('SELECT COUNT(*) FROM search_value_fts WHERE search_value_fts MATCH ?').pluck().get(`"w${Buffer.from(term).toString('hex')}"`);
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,rows,PROD)';

  it('replaces a changed field’s values and terms, and leaves nothing of a deleted document', async () => {
    const { db, close } = freshDb();
    try {
      const index = new SqliteSearchIndex(db);
      await index.upsertFields('dataset', urn, { urn, name: 'Orders', tags: ['urn:li:tag:A', 'urn:li:tag:B'] });
      const first = rowCounts(db);
      expect(termRows(db, 'urn:li:tag:a')).toBe(1);
      await index.upsertFields('dataset', urn, { tags: ['urn:li:tag:C'] });
      const afterChange = rowCounts(db);
      expect(afterChange.values).toBe(first.values - 1);
      expect(afterChange.tokens).toBe(first.tokens);
      expect(termRows(db, 'urn:li:tag:a')).toBe(0);
      expect(termRows(db, 'urn:li:tag:c')).toBe(1);
      expect(db.prepare("SELECT COUNT(*) AS n FROM search_values WHERE value = 'urn:li:tag:C'").get()).toEqual({ n: 1 });
      await index.deleteDocument('dataset', urn);
      expect(rowCounts(db)).toEqual({ values: 0, terms: 0, tokens: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM search_fts WHERE search_fts MATCH 'orders'").get()).toEqual({ n: 0 });
    } finally {
      await close();
    }
  });

  it('keeps the removed column, which a reopened index reads, with the document through writes that leave it as it is', async () => {
    const { db, close } = freshDb();
    try {
      const index = new SqliteSearchIndex(db);
      const removedColumn = () => db.prepare('SELECT removed FROM search_docs WHERE urn = ?').pluck().get(urn);
      await index.upsertFields('dataset', urn, { urn, removed: true });
      await index.upsertFields('dataset', urn, { name: 'Orders' });
      expect(removedColumn()).toBe(1);
      await index.upsertFields('dataset', urn, { removed: false });
      await index.upsertFields('dataset', urn, { name: 'Orders v2' });
      expect(removedColumn()).toBe(0);
      await index.upsertFields('dataset', urn, { removed: true });
      expect(removedColumn()).toBe(1);
    } finally {
      await close();
    }
  });
});
