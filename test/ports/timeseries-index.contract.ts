/** The TimeseriesIndex contract: documents keyed by identity, read newest first. */
import type { TimeseriesDocument, TimeseriesIndex } from '@cairn/ports';

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
  });
}
