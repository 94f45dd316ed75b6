import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { LoopBusy } from './loop-busy';

const sinceThen = (then: EventLoopUtilization) => performance.eventLoopUtilization(performance.eventLoopUtilization(), then);

/**
 * Waits, by the loop's own measure, until it has been idle for `ms` in all and idle most of the time
 * since `then`. Neither a fixed wait nor idle time alone is enough on a loaded machine: a process kept
 * off the CPU past its timer finds the timer due and never idles, and one preempted while it runs its
 * callbacks counts the wait as busy time.
 */
async function mostlyIdleFor(ms: number, then: EventLoopUtilization): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (let since = sinceThen(then); (since.idle < ms || since.utilization > 0.4) && Date.now() < deadline; since = sinceThen(then)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LoopBusy', () => {
  it('answers how busy the loop was since the previous reading, not since it was made', async () => {
    const loop = new LoopBusy();
    const until = Date.now() + 200;
    while (Date.now() < until); // busy
    const first = loop.next();
    const read = performance.eventLoopUtilization();
    expect(first).toBeGreaterThan(0.8);
    // Since the last reading the loop has been mostly idle; since it was made, busy for the 200 ms stretch besides.
    await mostlyIdleFor(100, read);
    const reading = loop.next();
    // The same window measured apart, a few microseconds off at each end; a reading since the loop was made would include the busy stretch.
    const apart = sinceThen(read).utilization;
    expect(reading).toBeLessThan(0.5);
    expect(reading).toBeCloseTo(apart, 2);
  });
});
