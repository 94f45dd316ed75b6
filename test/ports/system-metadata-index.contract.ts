/** The SystemMetadataIndex contract: the run of each (urn, aspect)'s latest value, listed per run. */
import type { AspectRun, SystemMetadataIndex } from '@cairn/ports';

export interface OpenedSystemMetadataIndex {
  /** An empty index. */
  readonly index: SystemMetadataIndex;
  close(): Promise<void>;
}

const DS1 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)';

const run = (urn: string, aspect: string, runId: string, extra: Partial<AspectRun> = {}): AspectRun => ({ urn, aspect, runId, lastObserved: 100, ...extra });

export function describeSystemMetadataIndexContract(name: string, open: () => Promise<OpenedSystemMetadataIndex>): void {
  describe(`SystemMetadataIndex contract: ${name}`, () => {
    let opened: OpenedSystemMetadataIndex;
    let index: SystemMetadataIndex;

    beforeEach(async () => {
      opened = await open();
      index = opened.index;
    });
    afterEach(async () => {
      await opened.close();
    });

    const ofRun = (runId: string, start = 0, count = 10) => index.aspectsOfRun(runId, { start, count });

    it('lists the aspects a run wrote, by URN then aspect, with every field', async () => {
      await index.record(run(DS2, 'status', 'r1'));
      await index.record(run(DS1, 'ownership', 'r1', { registryName: 'unknownRegistry', registryVersion: '0.0.0' }));
      await index.record(run(DS1, 'datasetProperties', 'r1'));
      await index.record(run(DS1, 'globalTags', 'r2'));
      expect(await ofRun('r1')).toEqual({
        total: 3,
        aspects: [run(DS1, 'datasetProperties', 'r1'), run(DS1, 'ownership', 'r1', { registryName: 'unknownRegistry', registryVersion: '0.0.0' }), run(DS2, 'status', 'r1')],
      });
      expect(await ofRun('none')).toEqual({ total: 0, aspects: [] });
    });

    it('keeps only the run of the latest value', async () => {
      await index.record(run(DS1, 'ownership', 'r1'));
      await index.record(run(DS1, 'ownership', 'r2', { lastObserved: 200 }));
      expect((await ofRun('r1')).total).toBe(0);
      expect((await ofRun('r2')).aspects).toEqual([run(DS1, 'ownership', 'r2', { lastObserved: 200 })]);
    });

    it('pages', async () => {
      for (const aspect of ['a1', 'a2', 'a3', 'a4', 'a5']) await index.record(run(DS1, aspect, 'r1'));
      const page = await ofRun('r1', 2, 2);
      expect(page.total).toBe(5);
      expect(page.aspects.map((a) => a.aspect)).toEqual(['a3', 'a4']);
    });

    it('forgets one aspect, or every aspect of a URN', async () => {
      await index.record(run(DS1, 'ownership', 'r1'));
      await index.record(run(DS1, 'status', 'r1'));
      await index.record(run(DS2, 'status', 'r1'));
      await index.forget(DS1, 'status');
      expect((await ofRun('r1')).aspects.map((a) => [a.urn, a.aspect])).toEqual([
        [DS1, 'ownership'],
        [DS2, 'status'],
      ]);
      await index.forget(DS1);
      expect((await ofRun('r1')).aspects.map((a) => a.urn)).toEqual([DS2]);
      await index.forget(DS1, 'never-recorded');
    });

    it('clears every record', async () => {
      await index.record(run(DS1, 'ownership', 'r1'));
      await index.clear();
      expect((await ofRun('r1')).total).toBe(0);
    });
  });
}
