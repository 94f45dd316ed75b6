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
 * waits: 20,000 records are seconds at the rate one process applies them, and 10 s of backlog is
 * well within the 30 s a synchronous write waits before answering 504. A rebuild fills three
 * quarters of the record bound, two of the embedded search indexer's batches (roles.ts).
 */
export const DEFAULT_BACKPRESSURE: BackpressureLimits = { maxLag: 20_000, maxBacklogSeconds: 10, maxPendingWrites: 20_000, retryAfterSeconds: 1, sampleMs: 100 };

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

/**
 * How producers of change logs in bulk (an index restore) keep out of writers' way: a restore
 * batch is admitted like a write, and a full rebuild appends only as much as there is room for.
 */
export interface RestorePacing {
  /** Throws TooManyRequests when writes would be refused now. */
  admit(): Promise<void>;
  /** Resolves with how many of `wanted` more records (at least one) may be appended now for consumer `group`. */
  room(group: string, wanted: number): Promise<number>;
  /** Resolves once consumer `group` has consumed every record appended before the call. */
  caughtUp(group: string): Promise<void>;
  /** Runs a bulk producer's last step, which holds consumer `group` up, judging the group as while the producer paces itself. */
  holdingUp(group: string, work: () => Promise<void>): Promise<void>;
}

/**
 * The part of a consumer's bound a bulk producer may fill. A backlog the indexer can take in large
 * batches is what makes a rebuild fast, and a quarter of the bound (5,000 records by default) is
 * still room for many writes between two samples of the lag.
 */
const RESTORE_SHARE = 0.75;

/**
 * How often a producer waiting for room looks again: a look is two indexed reads, and each
 * millisecond between the indexer's commit and the next append is one it may spend waiting.
 */
const ROOM_POLL_MS = 20;

/**
 * How often a producer waiting for its last records to be consumed looks: on Kafka each look is a
 * round of offset requests, and at every 20 ms they cost the rebuild of the distributed bench's
 * catalog a sixth of its rate; the wait ends at most this much later.
 */
const CAUGHT_UP_POLL_MS = 250;

export class Backpressure implements RestorePacing {
  private sampledAt = 0;
  private latest: Readonly<Record<string, ConsumerProgress>> = {};
  /** Reads of the progress begun, and the number of the one `latest` came from: an older read finishing later is not kept. */
  private readsBegun = 0;
  private latestRead = 0;
  private sampling?: Promise<void>;
  private readonly rates = new Map<string, DrainRate>();
  /**
   * By group: until when a bulk producer counts as pacing itself for it (the bound's seconds after
   * its last look for room, time for the group to take what it appended last). Meanwhile writes are
   * not refused for that group's seconds of work, only for its records. The producer fills its
   * share at the rate the group drains, and that rate falls where the records get heavier (a
   * rebuild of the bench's 100k catalog drained 1,500 records/s in its slowest stretch and 3,100/s
   * on average): the share filled at a faster rate is then more than the bound's seconds, and every
   * write was refused until the group worked through it, though writes added next to nothing to it.
   * The record bound, of which the producer leaves a quarter to writes, still stops a flood.
   */
  private readonly bulkUntil = new Map<string, number>();

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
    await this.sampled();
    const refusal = this.refusal();
    if (refusal) throw new TooManyRequests(refusal, this.limits.retryAfterSeconds);
  }

  /**
   * Waits until consumer `group` (the one reading what the producer appends) is less than
   * RESTORE_SHARE of its bound behind (the rest is left to writers) and answers how many records,
   * up to `wanted`, fill that share. With the group caught up it answers at least one, so a tight
   * bound slows a producer, never stops it; a producer waits as long as the group stalls, which is
   * what a background rebuild should do. Each look reads the progress afresh, begun after the
   * producer's previous append, so what it appended is in the lag (a sample taken for writes,
   * possibly begun before that append, is not enough).
   */
  async room(group: string, wanted: number): Promise<number> {
    for (;;) {
      this.pacingItself(group);
      await this.read();
      const lag = this.latest[group]?.lag ?? 0;
      const free = Math.floor(this.boundOf(group, lag) * RESTORE_SHARE) - lag;
      const granted = Math.min(wanted, Math.max(free, lag === 0 ? 1 : 0));
      if (granted >= 1) return granted;
      await new Promise((resolve) => setTimeout(resolve, ROOM_POLL_MS));
    }
  }

  /**
   * Waits until the group's committed count reaches what was appended when called (its committed
   * count plus its lag then). On a log of several partitions the counts are sums, so another
   * partition's later records may be counted for one still behind: right for one partition (the
   * embedded log), close enough for Kafka's.
   */
  async caughtUp(group: string): Promise<void> {
    await this.read();
    const start = this.latest[group];
    if (!start) return;
    const target = start.committed + start.lag;
    while ((this.latest[group]?.committed ?? target) < target) {
      await new Promise((resolve) => setTimeout(resolve, CAUGHT_UP_POLL_MS));
      await this.read();
    }
  }

  /**
   * A rebuild's search index builds what it deferred at the end, holding the indexer up for seconds
   * (about 14 s at 100k entities): a consumer that commits nothing counts as more than the bound's
   * seconds behind, so every write would be refused, while the writes meanwhile are a few hundred
   * records.
   */
  async holdingUp(group: string, work: () => Promise<void>): Promise<void> {
    this.pacingItself(group);
    const timer = setInterval(() => this.pacingItself(group), 1000);
    try {
      await work();
    } finally {
      clearInterval(timer);
      this.pacingItself(group);
    }
  }

  /** A bulk producer is pacing itself for `group` now: see `bulkUntil`. */
  private pacingItself(group: string): void {
    this.bulkUntil.set(group, Date.now() + this.limits.maxBacklogSeconds * 1000);
  }

  /** Reads the consumers' progress when the latest sample is older than the interval (one read at a time). */
  private async sampled(): Promise<void> {
    if (Date.now() - this.sampledAt <= this.limits.sampleMs) return;
    this.sampling ??= this.read().finally(() => (this.sampling = undefined));
    await this.sampling;
  }

  /** Reads the consumers' progress and keeps it, unless a read begun later was kept first; a failed read keeps the last one. */
  private async read(): Promise<void> {
    const number = ++this.readsBegun;
    let progress: Readonly<Record<string, ConsumerProgress>>;
    try {
      progress = await this.readProgress();
    } catch {
      return;
    }
    if (number < this.latestRead) return;
    const at = Date.now();
    this.latestRead = number;
    this.sampledAt = at;
    this.latest = progress;
    for (const [group, p] of Object.entries(progress)) {
      let rate = this.rates.get(group);
      // A consumer that commits nothing for longer than the backlog bound is more than that far behind.
      if (!rate) this.rates.set(group, (rate = new DrainRate(undefined, MIN_LAG_FOR_BACKLOG_SECONDS, this.limits.maxBacklogSeconds * 1000)));
      rate.record(at, p);
    }
  }

  /** Why writes should be refused now, if they should. */
  private refusal(): string | undefined {
    for (const [group, p] of Object.entries(this.latest)) {
      if (p.lag > this.limits.maxLag) return `The ${group} consumers are ${p.lag} records behind (limit ${this.limits.maxLag}); retry later`;
      if ((this.bulkUntil.get(group) ?? 0) > Date.now()) continue;
      const perSecond = this.rates.get(group)?.perSecond();
      if (perSecond === undefined || p.lag < MIN_LAG_FOR_BACKLOG_SECONDS) continue;
      const seconds = perSecond > 0 ? p.lag / perSecond : Infinity;
      if (seconds > this.limits.maxBacklogSeconds) {
        return `The ${group} consumers are ${p.lag} records behind, ${Number.isFinite(seconds) ? `${Math.round(seconds)} s` : 'an unknown time'} of work at ${Math.round(perSecond)} records/s (limit ${this.limits.maxBacklogSeconds} s); retry later`;
      }
    }
    return undefined;
  }

  /**
   * How far behind a group may fall before writes are refused: the record bound, or fewer at its
   * drain rate once it has a backlog (as `refusal` judges it: the rate of a consumer with next to
   * no work is what it was given, not what it can do).
   */
  private boundOf(group: string, lag: number): number {
    const perSecond = this.rates.get(group)?.perSecond();
    if (perSecond === undefined || lag < MIN_LAG_FOR_BACKLOG_SECONDS) return this.limits.maxLag;
    return Math.min(this.limits.maxLag, Math.max(MIN_LAG_FOR_BACKLOG_SECONDS - 1, Math.floor(this.limits.maxBacklogSeconds * perSecond)));
  }
}
