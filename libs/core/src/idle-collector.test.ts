import { collectGarbageWhenIdle } from './idle-collector';

/** About 60 MB of objects that live long enough to reach the old generation, then are dropped. */
function leaveOldGarbage(): void {
  let kept: { n: number; text: string }[] | undefined = [];
  for (let i = 0; i < 600_000; i++) kept.push({ n: i, text: `row ${i}` });
  kept = undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  it('collects the garbage of a burst once the thread is idle, and not while it is busy', async () => {
    const collections: [number, number][] = [];
    const collector = collectGarbageWhenIdle({ checkMs: 25, idleChecks: 3, growthBytes: 16 * 1024 * 1024, collected: (before, after) => collections.push([before, after]) });
    try {
      leaveOldGarbage();
      await stayBusy(400);
      expect(collections).toEqual([]);
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
  });
});
