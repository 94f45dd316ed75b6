/**
 * One writer at a time per aspect. FerretDB 1.x evaluates the filter of an update or delete in
 * a read of its own and then writes by `_id`, so a filtered update is no compare-and-swap there:
 * two writers filtering on the same version 0 both match and the second overwrites the first.
 * An insert against a unique index is atomic on both servers, so a lock is a document inserted
 * under the aspect's key. A writer that dies holding one is outlived by a lease.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Collection } from 'mongodb';
import { text } from './checked-values';
import { insertEachUnlessTaken, insertUnlessTaken } from './insert-unless-taken';

export const WRITE_LOCK_COLLECTION = 'metadata_aspect_v2_write_locks';

/** Far longer than the few single-document steps done under a lock; also how long a dead writer's lock blocks its aspect. */
const WRITE_LOCK_LEASE_MS = 30_000;
/** Waiting longer than a whole lease means the lock keeps being taken by others. */
const GIVE_UP_AFTER_MS = 2 * WRITE_LOCK_LEASE_MS;
const MAX_BACKOFF_MS = 100;

export interface WriteLockDocument {
  /** A token of this acquisition, so releasing or breaking it can never remove a later one. */
  readonly _id: string;
  /** The locked aspect, unique. */
  readonly key: string;
  /** Who holds it (`proposal <id>`, `a delete`), for the error of a writer that gave up. */
  readonly holder: string;
  /** Milliseconds since the epoch on the holder's clock. */
  readonly acquiredAt: number;
}

export class WriteLockTimeoutError extends Error {
  constructor(key: string, holder: string, current: WriteLockDocument | null) {
    const held = current ? `held by ${current.holder} since ${new Date(current.acquiredAt).toISOString()}` : 'taken by others';
    super(`${holder} gave up waiting ${GIVE_UP_AFTER_MS} ms for the write lock of aspect ${key}: ${held}`);
    this.name = 'WriteLockTimeoutError';
  }
}

export function aspectLockKey(urn: string, aspect: string): string {
  return JSON.stringify([text(urn, 'urn'), text(aspect, 'aspect')]);
}

export class AspectWriteLocks {
  constructor(private readonly locks: Collection<WriteLockDocument>) {}

  static async open(locks: Collection<WriteLockDocument>): Promise<AspectWriteLocks> {
    await locks.createIndex({ key: 1 }, { unique: true, name: 'key' });
    return new AspectWriteLocks(locks);
  }

  /** Runs `work` holding the locks of the given aspects of `urn`, taken in name order so two callers cannot deadlock. */
  async withLocks<T>(urn: string, aspects: readonly string[], holder: string, work: () => Promise<T>): Promise<T> {
    const tokens: string[] = [];
    try {
      for (const aspect of [...new Set(aspects)].sort()) tokens.push(await this.acquire(aspectLockKey(urn, aspect), holder));
      return await work();
    } finally {
      await this.release(tokens);
    }
  }

  /**
   * Takes, in one request, those of the locks that are free, without waiting for the others;
   * answers each one's token, or undefined where it is held. `release` gives them back.
   */
  async tryAcquireEach(keys: readonly string[], holder: string): Promise<(string | undefined)[]> {
    const docs = keys.map((key) => ({ _id: randomBytes(12).toString('hex'), key, holder, acquiredAt: Date.now() }));
    const taken = await insertEachUnlessTaken(this.locks, docs);
    const tokens = docs.map((doc, i) => {
      const t = taken[i]!;
      return t.ok && t.value ? doc._id : undefined;
    });
    const failed = taken.find((t) => !t.ok);
    if (failed && !failed.ok) {
      await this.release(tokens.filter((t): t is string => t !== undefined));
      throw failed.error;
    }
    return tokens;
  }

  async release(tokens: readonly string[]): Promise<void> {
    if (tokens.length) await this.locks.bulkWrite(tokens.map((_id) => ({ deleteOne: { filter: { _id } } })), { ordered: false });
  }

  private async acquire(key: string, holder: string): Promise<string> {
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      const token = randomBytes(12).toString('hex');
      if (await insertUnlessTaken(this.locks, { _id: token, key, holder, acquiredAt: Date.now() })) return token;
      const current = await this.locks.findOne({ key });
      if (current && Date.now() - current.acquiredAt > WRITE_LOCK_LEASE_MS) {
        // Its holder died (or stalled past the lease): break exactly that acquisition.
        await this.locks.deleteOne({ _id: current._id });
        continue;
      }
      if (Date.now() - startedAt > GIVE_UP_AFTER_MS) throw new WriteLockTimeoutError(key, holder, current);
      // Jittered, so writers woken together do not collide again.
      await sleep(Math.min(MAX_BACKOFF_MS, 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}
