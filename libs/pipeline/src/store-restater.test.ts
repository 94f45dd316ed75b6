/** A full pass's read-ahead: the rows it holds are refilled after every take, whatever was taken. */
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import type { AspectReads, LogProducer, NewRecord, StoredAspect } from '@cairn/ports';
import { StoreRestater } from './index-restorer';

/** The pass holds 15,000 rows ahead, read in pages of 1,000. */
const READ_AHEAD = 15_000;
const PAGE = 1000;
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
    const pass = await restater.beginPass();
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE);
    // A take of one leaves 14,999: one more page is read, leaving 15,999.
    await restater.restateNext(pass, 1);
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE + 1);
    // A take of one leaves 15,998, more than it holds ahead: nothing to read now.
    await restater.restateNext(pass, 1);
    expect(await settled(reads)).toBe(READ_AHEAD / PAGE + 1);
    // A take of 15,000 leaves 998: the reading starts again.
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
