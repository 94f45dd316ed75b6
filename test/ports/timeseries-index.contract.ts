/** The TimeseriesIndex contract: documents keyed by identity, read newest first; truncation as a task. */
import type { IndexTask, TimeseriesDocument, TimeseriesIndex } from '@cairn/ports';

export interface OpenedTimeseriesIndex {
  /** An empty index. */
  readonly index: TimeseriesIndex;
  close(): Promise<void>;
}

const DS1 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)';

const doc = (urn: string, timestampMillis: number, extra: Partial<TimeseriesDocument> = {}): TimeseriesDocument => ({
  entityType: 'dataset',
  aspect: 'datasetProfile',
  urn,
  timestampMillis,
  event: JSON.stringify({ timestampMillis, rowCount: extra.messageId ? 1 : timestampMillis }),
  ...extra,
});

export function describeTimeseriesIndexContract(name: string, open: () => Promise<OpenedTimeseriesIndex>): void {
  describe(`TimeseriesIndex contract: ${name}`, () => {
    let opened: OpenedTimeseriesIndex;
    let index: TimeseriesIndex;

    beforeEach(async () => {
      opened = await open();
      index = opened.index;
    });
    afterEach(async () => {
      await opened.close();
    });

    const profiles = (urn?: string, extra: { startTimeMillis?: number; endTimeMillis?: number; limit?: number } = {}) =>
      index.query({ entityType: 'dataset', aspect: 'datasetProfile', ...(urn ? { urn } : {}), limit: 100, ...extra });
    const times = (docs: TimeseriesDocument[]) => docs.map((d) => d.timestampMillis);

    it('stores a document with every field', async () => {
      const full = doc(DS1, 100, {
        eventGranularity: '{"unit":"DAY","multiple":1}',
        partitionSpec: '{"partition":"p1","type":"PARTITION"}',
        messageId: 'm1',
        systemMetadata: '{"runId":"r"}',
      });
      await index.upsert(full);
      expect(await profiles(DS1)).toEqual([full]);
    });

    it('leaves absent optional fields absent', async () => {
      await index.upsert(doc(DS1, 100));
      expect(await profiles(DS1)).toEqual([doc(DS1, 100)]);
    });

    it('overwrites a document of the same identity', async () => {
      await index.upsert({ ...doc(DS1, 100), event: '{"v":1}' });
      await index.upsert({ ...doc(DS1, 100), event: '{"v":2}', systemMetadata: '{"runId":"again"}' });
      const docs = await profiles(DS1);
      expect(docs).toHaveLength(1);
      expect(docs[0].event).toBe('{"v":2}');
      expect(docs[0].systemMetadata).toBe('{"runId":"again"}');
    });

    it('keeps documents that differ in any part of the identity', async () => {
      await index.upsert(doc(DS1, 100));
      await index.upsert(doc(DS1, 100, { messageId: 'm1' }));
      await index.upsert(doc(DS1, 100, { messageId: 'm2' }));
      await index.upsert(doc(DS1, 100, { partitionSpec: '{"partition":"p1"}' }));
      await index.upsert(doc(DS1, 100, { eventGranularity: '{"unit":"DAY"}' }));
      await index.upsert(doc(DS1, 101));
      await index.upsert(doc(DS2, 100));
      await index.upsert(doc(DS1, 100, { aspect: 'datasetUsageStatistics' }));
      expect(await profiles(DS1)).toHaveLength(6);
      expect(await profiles()).toHaveLength(7);
    });

    it('reads newest first', async () => {
      for (const t of [300, 100, 500, 200, 400]) await index.upsert(doc(DS1, t));
      expect(times(await profiles(DS1))).toEqual([500, 400, 300, 200, 100]);
    });

    it('reads a time range, both ends included', async () => {
      for (const t of [100, 200, 300, 400, 500]) await index.upsert(doc(DS1, t));
      expect(times(await profiles(DS1, { startTimeMillis: 200, endTimeMillis: 400 }))).toEqual([400, 300, 200]);
      expect(times(await profiles(DS1, { startTimeMillis: 450 }))).toEqual([500]);
      expect(times(await profiles(DS1, { endTimeMillis: 150 }))).toEqual([100]);
      expect(await profiles(DS1, { startTimeMillis: 501 })).toEqual([]);
    });

    it('limits to the newest documents', async () => {
      for (const t of [100, 200, 300, 400, 500]) await index.upsert(doc(DS1, t));
      expect(times(await profiles(DS1, { limit: 2 }))).toEqual([500, 400]);
      expect(times(await profiles(DS1, { limit: 1, endTimeMillis: 350 }))).toEqual([300]);
    });

    it('filters by URN, entity type and aspect', async () => {
      await index.upsert(doc(DS1, 100));
      await index.upsert(doc(DS2, 200));
      await index.upsert(doc(DS1, 300, { aspect: 'operation' }));
      await index.upsert(doc('urn:li:chart:(looker,c1)', 400, { entityType: 'chart', aspect: 'datasetProfile' }));
      expect(times(await profiles(DS1))).toEqual([100]);
      expect(times(await profiles())).toEqual([200, 100]);
      expect(times(await index.query({ entityType: 'dataset', aspect: 'operation', limit: 10 }))).toEqual([300]);
      expect(times(await index.query({ entityType: 'chart', aspect: 'datasetProfile', limit: 10 }))).toEqual([400]);
    });

    it('deletes every document of a URN', async () => {
      await index.upsert(doc(DS1, 100));
      await index.upsert(doc(DS1, 200, { aspect: 'operation' }));
      await index.upsert(doc(DS2, 100));
      expect(await index.deleteByUrn(DS1)).toBe(2);
      expect(await profiles(DS1)).toEqual([]);
      expect(await index.query({ entityType: 'dataset', aspect: 'operation', limit: 10 })).toEqual([]);
      expect(times(await profiles(DS2))).toEqual([100]);
      expect(await index.deleteByUrn(DS1)).toBe(0);
    });

    it('deletes documents of one aspect and a time range', async () => {
      for (const t of [100, 200, 300, 400]) {
        await index.upsert(doc(DS1, t));
        await index.upsert(doc(DS1, t, { aspect: 'operation' }));
      }
      expect(await index.deleteByUrn(DS1, { aspect: 'datasetProfile', startTimeMillis: 200, endTimeMillis: 300 })).toBe(2);
      expect(times(await profiles(DS1))).toEqual([400, 100]);
      expect(await index.deleteByUrn(DS1, { aspect: 'operation', startTimeMillis: 300 })).toBe(2);
      expect(times(await index.query({ entityType: 'dataset', aspect: 'operation', urn: DS1, limit: 10 }))).toEqual([200, 100]);
      expect(await index.deleteByUrn(DS1, { endTimeMillis: 100 })).toBe(2);
      expect(times(await profiles(DS1))).toEqual([400]);
    });

    it('clears every document', async () => {
      await index.upsert(doc(DS1, 100));
      await index.clear();
      expect(await profiles()).toEqual([]);
    });

    describe('truncation', () => {
      const operation = (t: number): TimeseriesDocument => ({ entityType: 'dataset', aspect: 'operation', urn: DS1, timestampMillis: t, event: `{"timestampMillis":${t}}` });
      const operations = () => index.query({ entityType: 'dataset', aspect: 'operation', limit: 10_000 });
      /** Writes in one batch where the engine has batches. */
      const writeAll = async (docs: TimeseriesDocument[]) => {
        const batch = index.batch?.();
        for (const d of docs) await (batch ?? index).upsert(d);
        await batch?.flush();
      };
      const finished = async (taskId: string): Promise<IndexTask> => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const task = await index.task(taskId);
          expect(task).toBeDefined();
          if (task!.completed) return task!;
          expect(Date.now()).toBeLessThan(deadline);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

      it('deletes the older documents in batches of batchSize, reporting each batch', async () => {
        await writeAll([...range(1, 7), 100, 101].map(operation));
        expect(await index.countOlderThan('dataset', 'operation', 50)).toEqual({ matching: 6, total: 8 });
        const first = await index.startDeleteOlderThan('dataset', 'operation', 50, { batchSize: 3 });
        expect(first).toMatch(/^[a-zA-Z0-9-_]+:[0-9]+$/);
        // A batch is a page of at most batchSize; an empty last page is not a batch.
        expect(await finished(first)).toMatchObject({ taskId: first, completed: true, status: { total: 6, deleted: 6, batches: 2, timed_out: false } });
        expect(times(await operations())).toEqual([101, 100]);

        await writeAll(range(10, 15).map(operation));
        const second = await index.startDeleteOlderThan('dataset', 'operation', 50, { batchSize: 2, timeoutSeconds: 60 });
        expect(second).not.toBe(first);
        const done = await finished(second);
        expect(done).toMatchObject({ completed: true, status: { total: 5, deleted: 5, batches: 3, timed_out: false } });
        expect(done.runTimeNanos).toBeGreaterThan(0);
        expect(times(await operations())).toEqual([101, 100]);
        expect(await index.countOlderThan('dataset', 'operation', 50)).toEqual({ matching: 0, total: 2 });
        // Nothing older: done at once, without a batch.
        expect((await finished(await index.startDeleteOlderThan('dataset', 'operation', 50, { batchSize: 2 }))).status).toMatchObject({ total: 0, deleted: 0, batches: 0, timed_out: false });
      });

      it('stops once it has run for timeoutSeconds, keeping what it deleted', async () => {
        const N = 20_000;
        await writeAll(range(1, N + 1).map(operation));
        const timeoutSeconds = 0.1;
        const taskId = await index.startDeleteOlderThan('dataset', 'operation', N + 1, { batchSize: 1, timeoutSeconds });
        const task = await finished(taskId);
        const status = task.status as { total: number; deleted: number; batches: number; timed_out: boolean };
        expect(status).toMatchObject({ total: N, timed_out: true });
        expect(status.deleted).toBeGreaterThan(0);
        expect(status.deleted).toBeLessThan(N);
        expect(status.batches).toBeGreaterThanOrEqual(status.deleted);
        expect(task.runTimeNanos).toBeGreaterThanOrEqual(timeoutSeconds * 0.9e9);
        // What was deleted stays deleted, the rest stays (a batch cut off mid-way may have deleted its one row).
        const deadline = Date.now() + 10_000;
        let left = (await index.countOlderThan('dataset', 'operation', N + 1)).matching;
        while (left > N - status.deleted && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          left = (await index.countOlderThan('dataset', 'operation', N + 1)).matching;
        }
        expect(left).toBeLessThanOrEqual(N - status.deleted);
        expect(left).toBeGreaterThanOrEqual(N - status.deleted - 1);
      }, 60_000);

      it('answers undefined for a task it does not know', async () => {
        expect(await index.task('nowhere:123456789')).toBeUndefined();
      });
    });
  });
}
