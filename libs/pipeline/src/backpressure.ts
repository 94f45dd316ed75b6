/**
 * Admission control for writes: when the consumers fall too far behind, or too many synchronous
 * writes are already waiting, new writes are refused with 429 and a Retry-After instead of piling
 * up in memory. Progress is sampled at most every `sampleMs` so the check stays off the hot path.
 */
import { RestliError } from '@cairn/core';
import type { ConsumerProgress } from '@cairn/ports';
import { DrainRate } from './drain-rate';

export interface BackpressureLimits {
  /** Largest tolerated lag (records) of any consumer group before writes are refused. */
  readonly maxLag: number;
  /**
   * Largest tolerated backlog of any consumer group in seconds of its work (its lag divided by the
   * rate it drains at): the same lag is a second of work for one deployment and minutes for another.
   */
  readonly maxBacklogSeconds: number;
  /** Largest number of synchronous writes waiting to be applied. */
  readonly maxPendingWrites: number;
  readonly retryAfterSeconds: number;
  readonly sampleMs: number;
}

/**
 * A synchronous write waits behind the whole backlog, so the bounds are also bounds on how long it
 * waits: 10,000 records are seconds at the rate one process applies them, and 10 s of backlog is
 * well within the 30 s a synchronous write waits before answering 504.
 */
export const DEFAULT_BACKPRESSURE: BackpressureLimits = { maxLag: 10_000, maxBacklogSeconds: 10, maxPendingWrites: 20_000, retryAfterSeconds: 1, sampleMs: 100 };

/** Below this lag a backlog is never refused for its seconds: a just-stalled consumer with a handful of records is no overload. */
const MIN_LAG_FOR_BACKLOG_SECONDS = 100;

export class TooManyRequests extends RestliError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

export class Backpressure {
  private sampledAt = 0;
  private refusal?: string;
  private sampling?: Promise<void>;
  private readonly rates = new Map<string, DrainRate>();

  /** `readProgress`: every consumer group's progress, by group. */
  constructor(
    private readonly limits: BackpressureLimits,
    private readonly readProgress: () => Promise<Readonly<Record<string, ConsumerProgress>>>,
    private readonly pendingWrites: () => number,
  ) {}

  /** Throws TooManyRequests when a write should not be admitted now. */
  async admit(): Promise<void> {
    if (this.pendingWrites() >= this.limits.maxPendingWrites) {
      throw new TooManyRequests(`Too many writes in flight (${this.pendingWrites()}); retry later`, this.limits.retryAfterSeconds);
    }
    if (Date.now() - this.sampledAt > this.limits.sampleMs) {
      this.sampling ??= this.readProgress().then(
        (progress) => {
          this.sampledAt = Date.now();
          this.refusal = this.judge(progress, this.sampledAt);
          this.sampling = undefined;
        },
        () => {
          this.sampling = undefined;
        },
      );
      await this.sampling;
    }
    if (this.refusal) throw new TooManyRequests(this.refusal, this.limits.retryAfterSeconds);
  }

  /** Why writes should be refused now, if they should. */
  private judge(progress: Readonly<Record<string, ConsumerProgress>>, at: number): string | undefined {
    let refusal: string | undefined;
    for (const [group, p] of Object.entries(progress)) {
      let rate = this.rates.get(group);
      if (!rate) this.rates.set(group, (rate = new DrainRate()));
      rate.record(at, p);
      if (refusal) continue;
      if (p.lag > this.limits.maxLag) {
        refusal = `The ${group} consumers are ${p.lag} records behind (limit ${this.limits.maxLag}); retry later`;
        continue;
      }
      const perSecond = rate.perSecond();
      if (perSecond === undefined || p.lag < MIN_LAG_FOR_BACKLOG_SECONDS) continue;
      const seconds = perSecond > 0 ? p.lag / perSecond : Infinity;
      if (seconds > this.limits.maxBacklogSeconds) {
        refusal = `The ${group} consumers are ${p.lag} records behind, ${Number.isFinite(seconds) ? `${Math.round(seconds)} s` : 'an unknown time'} of work at ${Math.round(perSecond)} records/s (limit ${this.limits.maxBacklogSeconds} s); retry later`;
      }
    }
    return refusal;
  }
}
