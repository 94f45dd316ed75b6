import { performance } from 'node:perf_hooks';
import { LoopBusy } from './loop-busy';

/**
 * Waits until the event loop has been idle for `ms` in all, by the loop's own measure: a fixed wait
 * is not enough, since a process kept off the CPU past its timer finds the timer due and never idles.
 */
async function idleFor(ms: number): Promise<void> {
  const start = performance.eventLoopUtilization();
  const deadline = Date.now() + 10_000;
  while (performance.eventLoopUtilization(performance.eventLoopUtilization(), start).idle < ms && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LoopBusy', () => {
  it('answers how busy the loop was since the previous reading, not since it was made', async () => {
    const loop = new LoopBusy();
    const until = Date.now() + 200;
    while (Date.now() < until); // busy
    expect(loop.next()).toBeGreaterThan(0.8);
    // Over both stretches the loop was busy for at least two thirds of the time; since the last reading, hardly at all.
    await idleFor(100);
    expect(loop.next()).toBeLessThan(0.5);
  });
});
