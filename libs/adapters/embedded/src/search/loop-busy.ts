/** How busy this thread's event loop was between one reading and the next. */
import { performance } from 'node:perf_hooks';

export class LoopBusy {
  private since = performance.eventLoopUtilization();

  /** The share of its time the loop was busy since the previous reading (or since this was made). */
  next(): number {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, this.since).utilization;
    this.since = now;
    return busy;
  }
}
