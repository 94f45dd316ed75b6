/** Versioned aspect storage: one row per (urn, aspect, version); version 0 is the latest. */
import type { SystemMetadata } from '@cairn/events';

export interface StoredAspect {
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  /** The aspect value as JSON text. */
  readonly metadata: string;
  readonly systemMetadata?: SystemMetadata;
  readonly createdOn: number;
  readonly createdBy: string;
}

export interface AspectWrite {
  readonly urn: string;
  readonly aspect: string;
  readonly metadata: string;
  readonly systemMetadata: SystemMetadata;
  readonly createdOn: number;
  readonly createdBy: string;
  /** The proposal's `proposalMark`, so a redelivered proposal is recognised (see `alreadyApplied`). */
  readonly proposalId: string;
}

export type WriteOutcome =
  /** First version of the aspect. */
  | { readonly kind: 'created'; readonly current: StoredAspect }
  /** The previous latest was kept as a new version and replaced. */
  | { readonly kind: 'updated'; readonly current: StoredAspect; readonly previous: StoredAspect }
  /** Same value as stored: only systemMetadata.lastObserved was refreshed. */
  | { readonly kind: 'unchanged'; readonly current: StoredAspect }
  /** This very proposal was already applied (redelivery): nothing written. */
  | { readonly kind: 'replayed'; readonly current: StoredAspect; readonly previous?: StoredAspect };

export interface AspectScan {
  readonly urn?: string;
  readonly aspect?: string;
  /** SQL LIKE pattern over URNs (`%` wildcard). */
  readonly urnLike?: string;
  readonly entityType?: string;
  /**
   * Only rows after this (urn, aspect) in scan order: a long scan pages by position, since
   * skipping `start` rows walks every one of them again on each page.
   */
  readonly after?: { readonly urn: string; readonly aspect: string };
  readonly start: number;
  readonly limit: number;
}

export interface AspectStore {
  write(write: AspectWrite): Promise<WriteOutcome>;
  /**
   * Writes the aspect's version 0 unless it has one, and leaves a stored one as it is. Answers the
   * row when this write created it, or a write with the same `proposalId` did (the proposal
   * delivered again, or retried after a later failure: its change log is still owed); undefined
   * when another write's row is there. An entity's key aspect is written so beside its first
   * aspect, in one atomic request where the store is a round trip away instead of a read, then a write.
   */
  createIfAbsent(write: AspectWrite): Promise<StoredAspect | undefined>;
  /** Latest (version 0) rows of the given URNs, optionally only of some aspects. */
  getLatest(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]>;
  getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined>;
  /** Removes every version of one aspect; returns the latest that was removed. */
  deleteAspect(urn: string, aspect: string): Promise<{ latest?: StoredAspect; rows: number }>;
  /** Removes every row of a URN; returns the latest rows that were removed. */
  deleteEntity(urn: string): Promise<{ latest: StoredAspect[]; rows: number }>;
  exists(urn: string): Promise<boolean>;
  /** Latest rows in (urn, aspect) order, for index rebuilds. */
  scanLatest(scan: AspectScan): Promise<StoredAspect[]>;
  countLatest(scan: Omit<AspectScan, 'start' | 'limit'>): Promise<number>;
  /**
   * Every latest row, in batches of at most `batchSize`, in one pass over the store (a full
   * rebuild): no order is promised, and a row written meanwhile may or may not be seen.
   */
  latestInBatches(batchSize: number): AsyncIterable<StoredAspect[]>;
  /**
   * Optional, for engines where a request or a commit is what costs: runs `work` as one unit, so a
   * batch of writes commits once (the embedded engine: one transaction) or shares its bookkeeping
   * requests (MongoDB: the entity directory's updates go together when it ends). `work` writes
   * through the store it is given, and must await nothing but that store's calls, since whatever
   * else ran meanwhile would join an embedded unit's transaction; a failed write inside it undoes
   * only itself.
   */
  unit?<T>(work: (store: UnitStore) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What a unit's work reads and writes through (`AspectStore.unit`). */
export type UnitStore = Pick<AspectStore, 'write' | 'createIfAbsent' | 'getLatest' | 'deleteAspect' | 'deleteEntity'>;

/** The reads of the store: what read paths get (a request's view may leave out what its actor may not read). */
export type AspectReader = Pick<AspectStore, 'getLatest' | 'getVersion' | 'exists' | 'scanLatest' | 'countLatest'>;

/** Every read of the store, its scan in batches too: what a process or thread that reads the store but never writes it holds. */
export type AspectReads = AspectReader & Pick<AspectStore, 'latestInBatches'>;
