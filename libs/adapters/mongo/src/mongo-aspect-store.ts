/** AspectStore on MongoDB (or FerretDB): the reference's aspect table as one collection. */
import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import type { AspectScan, AspectStore, AspectWrite, StoredAspect, UnitStore, WriteOutcome } from '@cairn/ports';
import { ASPECT_COLLECTION, latestFromWrite, rowId, toStoredAspect, type AspectDocument } from './aspect-document';
import { AspectWriteLocks, WRITE_LOCK_COLLECTION, type WriteLockDocument } from './aspect-write-locks';
import { EntityDirectory, type AspectName } from './entity-directory';
import { serverTraits, type IdLookup, type ServerTraits } from './server-traits';
import { byAspect, byUrn, latestMatching } from './scan-filters';
import { insertEachUnlessTaken } from './insert-unless-taken';
import { TickBatcher } from './tick-batcher';
import { writeVersioned } from './versioned-write';

const URN_ASPECT_ORDER = { urn: 1, aspect: 1 } as const;
const DELETE_HOLDER = 'a delete';

/**
 * The aspect rows' indexes beside `_id`: rows of an entity or aspect (deletes), latest rows in
 * (urn, aspect) order (scans over everything or a URN pattern), and latest rows of one aspect
 * (scans and counts by aspect). `_id` is the row's URN, aspect and version, so the first one's
 * uniqueness holds without it.
 */
const ROW_INDEXES = [
  { key: { urn: 1, aspect: 1, version: 1 }, options: { unique: true, name: 'urn_aspect_version' } },
  { key: { version: 1, urn: 1, aspect: 1 }, options: { name: 'version_urn_aspect' } },
  { key: { aspect: 1, version: 1, urn: 1 }, options: { name: 'aspect_version_urn' } },
] as const;

const NAMESPACE_NOT_FOUND = 26;

/** A collection not created yet has no indexes (the server answers an error). */
async function indexesOf(rows: Collection<AspectDocument>): Promise<Document[]> {
  try {
    return await rows.listIndexes().toArray();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return [];
    throw error;
  }
}

/**
 * Creates the row indexes where queries read them (idempotent: creating an index that exists with
 * the same options is a no-op); drops them where they would only be kept up, as a store of an
 * earlier version created them on FerretDB too.
 */
async function ensureIndexes(rows: Collection<AspectDocument>, server: ServerTraits): Promise<void> {
  if (server.secondaryIndexes) {
    for (const { key, options } of ROW_INDEXES) await rows.createIndex(key, options);
    return;
  }
  const existing = new Set((await indexesOf(rows)).map((index) => String(index.name)));
  for (const { options } of ROW_INDEXES) if (existing.has(options.name)) await rows.dropIndex(options.name);
}

export class MongoAspectStore implements AspectStore {
  /** First writes of the writes in flight together, inserted in one request. */
  private readonly firstWrites: TickBatcher<AspectDocument, boolean>;

  private constructor(
    private readonly client: MongoClient,
    private readonly rows: Collection<AspectDocument>,
    private readonly locks: AspectWriteLocks,
    private readonly directory: EntityDirectory,
    private readonly byIds: IdLookup,
  ) {
    this.firstWrites = new TickBatcher((docs) => insertEachUnlessTaken(this.rows, docs));
  }

  /** Opens a store on `db` of `client`; the store owns the client and closes it. */
  static async open(client: MongoClient, db: Db): Promise<MongoAspectStore> {
    const rows = db.collection<AspectDocument>(ASPECT_COLLECTION);
    const server = await serverTraits(db);
    await ensureIndexes(rows, server);
    const locks = await AspectWriteLocks.open(db.collection<WriteLockDocument>(WRITE_LOCK_COLLECTION));
    return new MongoAspectStore(client, rows, locks, await EntityDirectory.open(db, locks, server), server.byIds);
  }

  /**
   * A write first tries to be the aspect's first (an atomic insert, batched with the writes in
   * flight beside it); when version 0 is there already it takes the versioned path.
   */
  async write(write: AspectWrite, unitNames?: AspectName[]): Promise<WriteOutcome> {
    const first = latestFromWrite(write, 0);
    const outcome: WriteOutcome = (await this.firstWrites.submit(first))
      ? { kind: 'created', current: toStoredAspect(first) }
      : await writeVersioned(this.rows, this.locks, write);
    // A first write names the aspect; a redelivery names it again, in case its writer died before.
    if (outcome.kind === 'created' || outcome.kind === 'replayed') await this.nameInUnit(write, unitNames);
    return outcome;
  }

  /**
   * Names the aspect either way: a row there already may be one whose writer died before naming it.
   * A row there already is read only to tell whether the same proposal wrote it.
   */
  async createIfAbsent(write: AspectWrite, unitNames?: AspectName[]): Promise<StoredAspect | undefined> {
    const first = latestFromWrite(write, 0);
    const created = await this.firstWrites.submit(first);
    await this.nameInUnit(write, unitNames);
    if (created) return toStoredAspect(first);
    const stored = await this.rows.findOne({ _id: first._id });
    return stored?.proposalId === write.proposalId ? toStoredAspect(stored) : undefined;
  }

  /** `unitNames`: the names a unit adds when it ends (a write outside a unit names its aspect at once). */
  private async nameInUnit(write: AspectWrite, unitNames: AspectName[] | undefined): Promise<void> {
    if (unitNames) unitNames.push({ urn: write.urn, aspect: write.aspect });
    else await this.directory.add(write.urn, write.aspect);
  }

  /**
   * The directory names of the unit's writes are added together once `work` is done, in a few
   * requests for the whole unit instead of a few for each write. When `work` fails they are not:
   * its batch is delivered again, and redeliveries name their aspects. The unit's names travel
   * with the store `work` is given: several units run at once (a batch of each partition), and
   * telling them apart by async context (`AsyncLocalStorage`) put promise hooks on every promise
   * of the process.
   */
  async unit<T>(work: (store: UnitStore) => Promise<T>): Promise<T> {
    const names: AspectName[] = [];
    const result = await work({
      write: (write) => this.write(write, names),
      createIfAbsent: (write) => this.createIfAbsent(write, names),
      getLatest: (urns, aspects) => this.getLatest(urns, aspects),
      deleteAspect: (urn, aspect) => this.deleteAspect(urn, aspect, names),
      deleteEntity: (urn) => this.deleteEntity(urn, names),
    });
    await this.name(names);
    return result;
  }

  private async name(names: readonly AspectName[]): Promise<void> {
    await Promise.all(names.map(({ urn, aspect }) => this.directory.add(urn, aspect)));
  }

  /** Inside a unit, a delete first names what the unit created of the entity, so the delete drops those names too. */
  private async nameBeforeDelete(urn: string, names: AspectName[] | undefined): Promise<void> {
    if (!names?.some((n) => n.urn === urn)) return;
    const own = names.filter((n) => n.urn === urn);
    names.splice(0, names.length, ...names.filter((n) => n.urn !== urn));
    await this.name(own);
  }

  async getLatest(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (urns.length === 0 || aspects?.length === 0) return [];
    // URN by URN, then aspect by aspect: in the order asked for, or by name, as the embedded store answers.
    const named = aspects ? undefined : await this.directory.aspectsOf(urns);
    const ids = urns.flatMap((urn) => (aspects ?? named!.get(urn) ?? []).map((aspect) => rowId(urn, aspect, 0)));
    const found = new Map((await this.byIds(this.rows, ids)).map((doc) => [doc._id, doc]));
    return ids.flatMap((id) => found.get(id) ?? []).map(toStoredAspect);
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    const doc = await this.rows.findOne({ _id: rowId(urn, aspect, version) });
    return doc ? toStoredAspect(doc) : undefined;
  }

  async deleteAspect(urn: string, aspect: string, unitNames?: AspectName[]): Promise<{ latest?: StoredAspect; rows: number }> {
    await this.nameBeforeDelete(urn, unitNames);
    return this.locks.withLocks(urn, [aspect], DELETE_HOLDER, async () => {
      const latest = await this.rows.findOne({ _id: rowId(urn, aspect, 0) });
      const { deletedCount } = await this.rows.deleteMany(byAspect(urn, aspect));
      await this.directory.remove(urn, [aspect]);
      return { ...(latest ? { latest: toStoredAspect(latest) } : {}), rows: deletedCount };
    });
  }

  async deleteEntity(urn: string, unitNames?: AspectName[]): Promise<{ latest: StoredAspect[]; rows: number }> {
    await this.nameBeforeDelete(urn, unitNames);
    // From the rows, not the directory: a row whose writer died before naming it goes too, with its change log.
    const aspects = await this.rows.distinct('aspect', { ...byUrn(urn), version: 0 });
    // Holding every aspect's lock, no change to them is half done when the rows go.
    return this.locks.withLocks(urn, aspects, DELETE_HOLDER, async () => {
      const latest = await this.rows.find({ ...byUrn(urn), version: 0 }).sort(URN_ASPECT_ORDER).toArray();
      const { deletedCount } = await this.rows.deleteMany(byUrn(urn));
      await this.directory.remove(urn, aspects);
      return { latest: latest.map(toStoredAspect), rows: deletedCount };
    });
  }

  /** Whether a named aspect has its row, reading ids only (a name may briefly outlive its row). */
  async exists(urn: string): Promise<boolean> {
    for (const aspect of (await this.directory.aspectsOf([urn])).get(urn) ?? []) {
      if (await this.rows.findOne({ _id: rowId(urn, aspect, 0) }, { projection: { _id: 1 } })) return true;
    }
    return false;
  }

  async scanLatest(scan: AspectScan): Promise<StoredAspect[]> {
    // MongoDB reads a limit of 0 as "no limit"; SQL's LIMIT 0 is no rows.
    if (scan.limit === 0) return [];
    let cursor = this.rows.find(latestMatching(scan)).sort(URN_ASPECT_ORDER).skip(Math.max(0, scan.start));
    if (scan.limit > 0) cursor = cursor.limit(scan.limit);
    return (await cursor.toArray()).map(toStoredAspect);
  }

  async countLatest(scan: Omit<AspectScan, 'start' | 'limit'>): Promise<number> {
    return this.rows.countDocuments(latestMatching(scan));
  }

  /**
   * One cursor over the collection, unsorted: FerretDB answers a filter on `version` or a sort by
   * scanning the whole collection, so paging by position would scan it once per page.
   */
  async *latestInBatches(batchSize: number): AsyncIterable<StoredAspect[]> {
    let batch: StoredAspect[] = [];
    for await (const doc of this.rows.find(latestMatching({}), { batchSize })) {
      batch.push(toStoredAspect(doc));
      if (batch.length === batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Connects to `uri`, creates the collections' indexes if missing, and returns a store that owns the connection. */
export async function openMongoAspectStore(uri: string, dbName: string): Promise<MongoAspectStore> {
  const client = await MongoClient.connect(uri);
  try {
    return await MongoAspectStore.open(client, client.db(dbName));
  } catch (error) {
    await client.close();
    throw error;
  }
}
