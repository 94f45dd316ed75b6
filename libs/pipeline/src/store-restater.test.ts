/** A full pass's read-ahead: the rows it holds are refilled after every take, whatever was taken. */
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import type { AspectReads, LogProducer, NewRecord, StoredAspect } from '@cairn/ports';
import { FULL_RESTORE_BATCH as PAGE, READ_AHEAD, StoreRestater } from './index-restorer';

/** Enough rows for the pass to refill what it holds ahead twice over. */
const ROWS = 40_000;

function row(i: number): StoredAspect {
  return {
    urn: `urn:li:dataset:(urn:li:dataPlatform:hive,t${String(i).padStart(6, '0')},PROD)`,
    aspect: 'status',
    version: 0,
    metadata: '{"removed":false}',
    createdOn: 1,
    createdBy: 'urn:li:corpuser:test',
  };
}

/** A store of ROWS status aspects that counts the pages asked of it. */
function pagedStore() {
  const reads = { pages: 0 };
  const store = {
    countLatest: async () => ROWS,
    latestInBatches: (size: number) => ({
      async *[Symbol.asyncIterator]() {
        for (let start = 0; start < ROWS; start += size) {
          reads.pages++;
          yield Array.from({ length: Math.min(size, ROWS - start) }, (_, k) => row(start + k));
        }
      },
    }),
  } as unknown as AspectReads;
  return { store, reads };
}

function collectingLog() {
  const urns: string[] = [];
  const log: LogProducer<MetadataChangeLog> = {
    topic: 'MetadataChangeLog_Versioned_v1',
    append: async (records: ReadonlyArray<NewRecord<MetadataChangeLog>>) => {
      for (const r of records) urns.push(r.value.entityUrn!);
      return records.map((_, i) => `0:${urns.length - records.length + i}`);
    },
    lag: async () => 0,
    progress: async () => ({ committed: 0, lag: 0 }),
  };
  return { log, urns };
}

/** Lets the read-ahead run until it stops asking for pages. */
async function settled(reads: { pages: number }): Promise<number> {
  for (let seen = -1; seen !== reads.pages; ) {
    seen = reads.pages;
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  return reads.pages;
}

describe('StoreRestater', () => {
  it('reads ahead again after a take that left more than it holds ahead, and emits every row once, in order', async () => {
    const { store, reads } = pagedStore();
    const { log, urns } = collectingLog();
    const restater = new StoreRestater(defaultRegistry(), store, log);
    // The pass then stops reading with exactly READ_AHEAD rows ahead.
    expect(READ_AHEAD % PAGE).toBe(0);
    const pass = await restater.beginPass();
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE);
    // A take of one leaves a row short of READ_AHEAD: one more page is read.
    await restater.restateNext(pass, 1);
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE + 1);
    // A take of one leaves PAGE - 2 rows more than READ_AHEAD: nothing to read now.
    await restater.restateNext(pass, 1);
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE + 1);
    // A take of READ_AHEAD leaves PAGE - 2 rows: the reading starts again.
    expect((await restater.restateNext(pass, READ_AHEAD)).sent).toBe(READ_AHEAD);
    expect(await settled(reads)).toBeGreaterThan(READ_AHEAD / PAGE + 1);
    let done = false;
    while (!done) done = (await restater.restateNext(pass, READ_AHEAD)).done;
    expect(urns).toHaveLength(ROWS);
    expect(urns).toEqual(Array.from({ length: ROWS }, (_, i) => row(i).urn));
  });

  it('answers a take larger than it holds ahead with what it holds', async () => {
    const { store, reads } = pagedStore();
    const { log, urns } = collectingLog();
    const restater = new StoreRestater(defaultRegistry(), store, log);
    const pass = await restater.beginPass();
    await settled(reads);
    const first = await restater.restateNext(pass, 2 * READ_AHEAD);
    expect(first).toEqual({ sent: READ_AHEAD, ignored: 0, done: false });
    let done = false;
    while (!done) done = (await restater.restateNext(pass, 2 * READ_AHEAD)).done;
    expect(urns).toHaveLength(ROWS);
  });
});
