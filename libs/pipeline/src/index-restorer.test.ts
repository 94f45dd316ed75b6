/** The restorer on the embedded adapters, paced by a Backpressure reading the real log's progress. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteAspectStore, SqliteEventLog, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import { Backpressure, DEFAULT_BACKPRESSURE, TooManyRequests } from './backpressure';
import { IndexRestorer, StoreRestater } from './index-restorer';

const INDEXER = 'indexer';
const MAX_LAG = 200;
const DATASETS = 700;

const dir = mkdtempSync(join(tmpdir(), 'cairn-restorer-'));
let db: EmbeddedDb;
let store: SqliteAspectStore;
let changeLog: SqliteEventLog<MetadataChangeLog>;
let backpressure: Backpressure;
let restorer: IndexRestorer;

beforeAll(async () => {
  db = openDatabase(join(dir, 'catalog.db'));
  store = new SqliteAspectStore(db);
  changeLog = new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Versioned_v1');
  for (let i = 0; i < DATASETS; i++) {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,restore.t${String(i).padStart(4, '0')},PROD)`;
    await store.write({ urn, aspect: 'status', metadata: JSON.stringify({ removed: false }), systemMetadata: {}, createdOn: 1, createdBy: 'urn:li:corpuser:test', proposalId: `0:${i}` });
  }
  backpressure = new Backpressure({ ...DEFAULT_BACKPRESSURE, maxLag: MAX_LAG, sampleMs: 5 }, async () => ({ [INDEXER]: await changeLog.progress(INDEXER) }), () => 0);
  restorer = new IndexRestorer(new StoreRestater(defaultRegistry(), store, changeLog), backpressure, INDEXER);
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('IndexRestorer', () => {
  it('re-emits every latest row, in order, never letting the indexer fall more than three quarters of the bound behind', async () => {
    const seen: string[] = [];
    let maxLag = 0;
    const watching = setInterval(() => void changeLog.lag(INDEXER).then((lag) => (maxLag = Math.max(maxLag, lag))), 1);
    const consumer = changeLog.consume(
      INDEXER,
      async (batch) => {
        maxLag = Math.max(maxLag, await changeLog.lag(INDEXER));
        for (const r of batch) seen.push(r.value.entityUrn!);
        await new Promise((resolve) => setTimeout(resolve, 5)); // an indexer slower than the store
      },
      { maxBatch: 50 },
    );
    try {
      const done = await restorer.restoreAll(() => undefined);
      expect(done).toEqual({ total: DATASETS, restored: DATASETS });
      while ((await changeLog.lag(INDEXER)) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      clearInterval(watching);
      await consumer.stop();
    }
    expect(seen).toHaveLength(DATASETS);
    expect(seen).toEqual([...seen].sort());
    // A flood would leave all 700 behind at once.
    expect(maxLag).toBeLessThanOrEqual(MAX_LAG * 0.75);
    expect(maxLag).toBeGreaterThan(MAX_LAG / 2);
  });

  it('refuses a restore batch like a write while the indexer is behind the bound', async () => {
    await changeLog.append(Array.from({ length: MAX_LAG + 1 }, (_, i) => ({ key: `k${i}`, value: { entityType: 'dataset', changeType: 'UPSERT' } as MetadataChangeLog })));
    await new Promise((resolve) => setTimeout(resolve, 10)); // past the sample interval
    const err = await restorer.restore({ start: 0, batchSize: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TooManyRequests);
    expect((err as TooManyRequests).message).toMatch(/indexer consumers are 201 records behind/);
  });
});
