/**
 * The rate a consumer group works through its backlog, from samples of its progress: records
 * committed per second over the recent intervals in which it had work. Intervals that start with
 * less than `minBacklog` records behind say nothing about how fast it can go (it soon ran out of
 * work, so they measure what it was given), so they do not dilute the rate.
 */
import type { ConsumerProgress } from '@cairn/ports';

interface Sample extends ConsumerProgress {
  readonly at: number;
}

/** Less busy time than this gives no rate: a consumer that just got work is not yet measured. */
const MIN_BUSY_MS = 1000;

export class DrainRate {
  private samples: Sample[] = [];
  /** `perSecond`'s answer since the last sample (null: not worked out yet); writes ask it with every request. */
  private rate: number | undefined | null = null;

  /**
   * A consumer commits once per batch, and a large batch of a large index (or emptying the index
   * for a rebuild) takes seconds: until it has committed something, or has worked `stalledMs`
   * without committing, its rate is unknown, not zero.
   */
  constructor(
    private readonly windowMs = 10_000,
    private readonly minBacklog = 1,
    private readonly stalledMs = 1000,
  ) {}

  record(at: number, progress: ConsumerProgress): void {
    this.rate = null;
    this.samples.push({ at, ...progress });
    // Keep the newest sample older than the window, as the start of the first interval in it.
    const firstInWindow = this.samples.findIndex((s) => s.at >= at - this.windowMs);
    if (firstInWindow > 1) this.samples = this.samples.slice(firstInWindow - 1);
  }

  /** Records committed per second while there was lag, or undefined when it had work for too short a time to tell. */
  perSecond(): number | undefined {
    if (this.rate === null) this.rate = this.measured();
    return this.rate;
  }

  private measured(): number | undefined {
    let busyMs = 0;
    let drained = 0;
    for (let i = 1; i < this.samples.length; i++) {
      const [from, to] = [this.samples[i - 1]!, this.samples[i]!];
      if (from.lag < this.minBacklog) continue;
      busyMs += to.at - from.at;
      drained += Math.max(0, to.committed - from.committed);
    }
    if (busyMs < MIN_BUSY_MS || (drained === 0 && busyMs < this.stalledMs)) return undefined;
    return (drained * 1000) / busyMs;
  }
}
