/**
 * Which aspects each entity has: one document per URN, so reading an entity (all its latest
 * aspects, or whether it exists) is lookups by `_id`, which both servers answer from an index,
 * where a filter on `urn` makes FerretDB scan the whole aspect collection.
 *
 * Kept without transactions. A name is added after its row is inserted, and again whenever that
 * proposal is delivered again, which repairs a writer that died in between; it is removed after
 * the aspect's rows are deleted, and added back if a first write raced the delete and its row is
 * there. So once writes settle the names are exactly the aspects that have a latest row; in
 * between a name may point at no row, and readers skip it. On a server whose updates are not
 * atomic (FerretDB applies `$addToSet` as a read and a later write, so two changes of one document
 * can lose one), an entity's document changes only under its directory lock.
 */
import { MongoBulkWriteError, MongoServerError, type Collection, type Db } from 'mongodb';
import { ASPECT_COLLECTION, rowId, type AspectDocument } from './aspect-document';
import { aspectLockKey, type AspectWriteLocks } from './aspect-write-locks';
import { text } from './checked-values';
import { DUPLICATE_KEY, insertEachUnlessTaken } from './insert-unless-taken';
import type { ServerTraits } from './server-traits';
import { TickBatcher, type Settled } from './tick-batcher';

export const ENTITY_DIRECTORY_COLLECTION = 'metadata_entity_aspects';

export interface EntityDirectoryDocument {
  /** The entity's URN; or BUILT_MARK. */
  readonly _id: string;
  readonly aspects: string[];
}

/** Says the directory holds every entity of the aspect collection (no URN looks like this). */
const BUILT_MARK = 'cairn:built-from-aspect-rows';
/** The lock of an entity's directory document, beside its aspects' locks (no aspect is named so). */
const DIRECTORY_LOCK = '(directory)';

const DIRECTORY_HOLDER = 'the entity directory';

/** An entity's aspect name, as the store's writes hand them to the directory. */
export interface AspectName {
  readonly urn: string;
  readonly aspect: string;
}

/** The update that adds names to an entity's document (created if missing). */
function naming(aspects: string[]) {
  return { $addToSet: { aspects: { $each: aspects } } };
}

/**
 * Runs `write`, whose operations are `urns`' in order, and answers those that failed only because
 * their upsert's insert found the document created meanwhile: on a server whose updates are not
 * atomic, an upsert that read no document inserts one, and another's insert may come in between.
 */
async function duplicatesOf(urns: readonly string[], write: () => Promise<unknown>): Promise<string[]> {
  try {
    await write();
    return [];
  } catch (error) {
    if (error instanceof MongoServerError && !(error instanceof MongoBulkWriteError) && error.code === DUPLICATE_KEY && urns.length === 1) return [...urns];
    if (!(error instanceof MongoBulkWriteError) || error.writeConcernError) throw error;
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (writeErrors.some((e) => e.code !== DUPLICATE_KEY)) throw error;
    return writeErrors.map((e) => urns[e.index]!);
  }
}

export class EntityDirectory {
  /** Names added by the writes in flight together, one request for them all where no lock is contended. */
  private readonly additions = new TickBatcher<AspectName, void>((items) => this.addEach(items));

  private constructor(
    private readonly entries: Collection<EntityDirectoryDocument>,
    private readonly rows: Collection<AspectDocument>,
    private readonly locks: AspectWriteLocks,
    private readonly server: ServerTraits,
  ) {}

  /** Opens the directory of `db`, first building it from the aspect rows of a database written before it existed. */
  static async open(db: Db, locks: AspectWriteLocks, server: ServerTraits): Promise<EntityDirectory> {
    const directory = new EntityDirectory(db.collection(ENTITY_DIRECTORY_COLLECTION), db.collection(ASPECT_COLLECTION), locks, server);
    if (!(await directory.entries.findOne({ _id: BUILT_MARK }))) await directory.build();
    return directory;
  }

  private async build(): Promise<void> {
    const cursor = this.rows.find({ version: 0 }, { projection: { urn: 1, aspect: 1 } }).sort({ urn: 1 });
    let urn: string | undefined;
    let names: string[] = [];
    for await (const row of cursor) {
      if (row.urn !== urn) {
        if (urn !== undefined) await this.addAll(urn, names);
        urn = row.urn;
        names = [];
      }
      names.push(row.aspect);
    }
    if (urn !== undefined) await this.addAll(urn, names);
    await this.entries.updateOne({ _id: BUILT_MARK }, { $set: { aspects: [] } }, { upsert: true });
  }

  async add(urn: string, aspect: string): Promise<void> {
    await this.additions.submit({ urn: text(urn, 'urn'), aspect: text(aspect, 'aspect') });
  }

  /**
   * Each URN's names in one update, all in one request. Where the server's updates are not atomic,
   * an entity without a document yet gets it by an insert, which is atomic there (a new entity's
   * names cost one request for the whole round, not a lock, an update and a release), and the
   * others are updated under their directory locks, taken together. A URN whose lock is held, or
   * whose document a racing insert created, waits for its lock alone.
   */
  private async addEach(items: readonly AspectName[]): Promise<Settled<void>[]> {
    const byUrn = new Map<string, Set<string>>();
    for (const { urn, aspect } of items) byUrn.set(urn, (byUrn.get(urn) ?? new Set()).add(aspect));
    let ready = [...byUrn.keys()];
    let alone: string[] = [];
    const failed = new Map<string, unknown>();
    let tokens: string[] = [];
    if (!this.server.atomicUpdates) {
      const inserted = await insertEachUnlessTaken(this.entries, ready.map((urn) => ({ _id: urn, aspects: [...byUrn.get(urn)!] })));
      inserted.forEach((s, i) => {
        if (!s.ok) failed.set(ready[i]!, s.error);
      });
      ready = ready.filter((_, i) => inserted[i]!.ok && !inserted[i]!.value);
      const taken = await this.locks.tryAcquireEach(ready.map((urn) => aspectLockKey(urn, DIRECTORY_LOCK)), DIRECTORY_HOLDER);
      tokens = taken.filter((t): t is string => t !== undefined);
      alone = ready.filter((_, i) => taken[i] === undefined);
      ready = ready.filter((_, i) => taken[i] !== undefined);
    }
    try {
      if (ready.length) {
        const updates = ready.map((urn) => ({ updateOne: { filter: { _id: urn }, update: naming([...byUrn.get(urn)!]), upsert: true } }));
        alone.push(...(await duplicatesOf(ready, () => this.entries.bulkWrite(updates, { ordered: false }))));
      }
    } finally {
      await this.locks.release(tokens);
    }
    const waiting = new Map(alone.map((urn) => [urn, this.addAll(urn, [...byUrn.get(urn)!])]));
    return items.map(({ urn }): Settled<void> => (failed.has(urn) ? { ok: false, error: failed.get(urn) } : { ok: true, value: waiting.get(urn) }));
  }

  private async addAll(urn: string, aspects: readonly string[]): Promise<void> {
    const update = naming(aspects.map((a) => text(a, 'aspect')));
    const upsert = () => this.entries.updateOne({ _id: text(urn, 'urn') }, update, { upsert: true });
    // An upsert that lost the race to another's insert of the document finds it the second time.
    await this.locked(urn, async () => ((await duplicatesOf([urn], upsert)).length ? upsert() : undefined));
  }

  private locked<T>(urn: string, change: () => Promise<T>): Promise<T> {
    return this.server.atomicUpdates ? change() : this.locks.withLocks(urn, [DIRECTORY_LOCK], DIRECTORY_HOLDER, change);
  }

  /** After the aspects' rows were deleted: drops their names, keeping any a racing first write brought back. */
  async remove(urn: string, aspects: readonly string[]): Promise<void> {
    if (aspects.length === 0) return;
    await this.locked(urn, () => this.entries.updateOne({ _id: text(urn, 'urn') }, { $pullAll: { aspects: aspects.map((a) => text(a, 'aspect')) } }));
    const recreated = await this.server.byIds(this.rows, aspects.map((aspect) => rowId(urn, aspect, 0)));
    if (recreated.length) await this.addAll(urn, recreated.map((row) => row.aspect));
  }

  /** The aspect names of each URN (in name order), none for a URN it does not know. */
  async aspectsOf(urns: readonly string[]): Promise<Map<string, string[]>> {
    const found = await this.server.byIds(this.entries, urns.map((urn) => text(urn, 'urn')));
    return new Map(found.map((entry) => [entry._id, [...entry.aspects].sort()]));
  }
}
