import * as v8 from 'node:v8';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectGarbageWhenIdle } from './idle-collector';

/**
 * Jest's worker has run other test files before this one: the heap they grew would hold this test's
 * objects without growing, and their garbage, collected while this test allocates, would hide its
 * growth. A service's collector starts on a small, fresh heap; this one too: V8's memory-pressure
 * collection (where Node has `v8.queryObjects`) gives the committed heap back as well.
 */
function startFromACleanHeap(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  class NeverInstantiated {}
  (v8 as { queryObjects?: (ctor: new () => unknown, options: { format: 'count' }) => number }).queryObjects?.(NeverInstantiated, { format: 'count' });
}

/** About 60 MB of objects that live long enough to reach the old generation. */
function oldObjects(): { n: number; text: string }[] {
  const kept: { n: number; text: string }[] = [];
  for (let i = 0; i < 600_000; i++) kept.push({ n: i, text: `row ${i}` });
  return kept;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starting from a clean heap walks and collects whatever the worker's earlier test files left: on a
 * slow machine, with the whole suite's servers and the other worker on its two cores, over 30 s.
 */
const HEAP_TEST_MS = 180_000;

/** Keeps the event loop busy about three quarters of the time for `ms`. */
async function stayBusy(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const slice = Date.now() + 15;
    while (Date.now() < slice);
    await sleep(5);
  }
}

describe('collectGarbageWhenIdle', () => {
  it.each([
    // A jest worker's own live heap can pass the collector's default bound: none here.
    ['as V8 does under memory pressure', { reducingUpToLiveBytes: Number.POSITIVE_INFINITY }],
    ['compacting, past the live heap for that', { reducingUpToLiveBytes: 0 }],
  ])('collects the garbage of a burst once the thread is idle, and not while it is busy (%s)', async (_, how) => {
    startFromACleanHeap();
    const collections: [number, number][] = [];
    const collector = collectGarbageWhenIdle({ checkMs: 25, idleChecks: 3, growthBytes: 16 * 1024 * 1024, ...how, collected: (before, after) => collections.push([before, after]) });
    try {
      let kept: unknown[] | undefined = oldObjects();
      await stayBusy(400);
      expect(collections).toEqual([]);
      // Dropped only now: a collection V8 began on its own while they were reachable keeps them,
      // so the garbage is still there when the thread goes idle.
      expect(kept.length).toBe(600_000);
      kept = undefined;
      for (let waited = 0; collections.length === 0 && waited < 2000; waited += 25) await sleep(25);
      expect(collections).toHaveLength(1);
      const [before, after] = collections[0]!;
      expect(before - after).toBeGreaterThan(16 * 1024 * 1024);
      // Nothing grew since: no second collection.
      await sleep(300);
      expect(collections).toHaveLength(1);
    } finally {
      collector.stop();
    }
  }, HEAP_TEST_MS);

  it('gives the young generation back too', async () => {
    startFromACleanHeap();
    const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;
    const collections: number[] = [];
    const collector = collectGarbageWhenIdle({
      checkMs: 25,
      idleChecks: 3,
      growthBytes: 16 * 1024 * 1024,
      reducingUpToLiveBytes: Number.POSITIVE_INFINITY,
      collected: () => collections.push(youngGeneration()),
    });
    try {
      // A burst grows the young generation to its largest.
      let kept: unknown[] | undefined = oldObjects();
      for (let round = 0; round < 20; round++) kept = [...kept, ...oldObjects().slice(0, 50_000)];
      const grown = youngGeneration();
      expect(kept.length).toBe(1_600_000);
      kept = undefined;
      for (let waited = 0; collections.length === 0 && waited < 2000; waited += 25) await sleep(25);
      expect(collections).toHaveLength(1);
      expect(collections[0]).toBeLessThan(grown / 2);
    } finally {
      collector.stop();
    }
  }, HEAP_TEST_MS);
});
