/**
 * Admission control for writes: when the consumers fall too far behind, or too many synchronous
 * writes are already waiting, new writes are refused with 429 and a Retry-After instead of piling
 * up in memory. Lag is sampled at most every `sampleMs` so the check stays off the hot path.
 */
import { RestliError } from '@cairn/core';

export interface BackpressureLimits {
  /** Largest tolerated lag (records) of any consumer group before writes are refused. */
  readonly maxLag: number;
  /** Largest number of synchronous writes waiting to be applied. */
  readonly maxPendingWrites: number;
  readonly retryAfterSeconds: number;
  readonly sampleMs: number;
}

/**
 * A synchronous write waits behind the whole backlog, so the lag bound is also a bound on how long
 * it waits: 10,000 records are seconds at the rate one process applies them, not minutes.
 */
export const DEFAULT_BACKPRESSURE: BackpressureLimits = { maxLag: 10_000, maxPendingWrites: 20_000, retryAfterSeconds: 1, sampleMs: 100 };

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
  private lag = 0;
  private sampling?: Promise<void>;

  constructor(
    private readonly limits: BackpressureLimits,
    private readonly readLag: () => Promise<number>,
    private readonly pendingWrites: () => number,
  ) {}

  /** Throws TooManyRequests when a write should not be admitted now. */
  async admit(): Promise<void> {
    if (this.pendingWrites() >= this.limits.maxPendingWrites) {
      throw new TooManyRequests(`Too many writes in flight (${this.pendingWrites()}); retry later`, this.limits.retryAfterSeconds);
    }
    if (Date.now() - this.sampledAt > this.limits.sampleMs) {
      this.sampling ??= this.readLag().then(
        (lag) => {
          this.lag = lag;
          this.sampledAt = Date.now();
          this.sampling = undefined;
        },
        () => {
          this.sampling = undefined;
        },
      );
      await this.sampling;
    }
    if (this.lag > this.limits.maxLag) {
      throw new TooManyRequests(`The indexers are ${this.lag} records behind (limit ${this.limits.maxLag}); retry later`, this.limits.retryAfterSeconds);
    }
  }
}
