/** AspectStore on MongoDB (or FerretDB): the reference's aspect table as one collection. */
import { MongoClient, type Collection, type Db } from 'mongodb';
import type { AspectScan, AspectStore, AspectWrite, StoredAspect, WriteOutcome } from '@cairn/ports';
import { ASPECT_COLLECTION, rowId, toStoredAspect, type AspectDocument } from './aspect-document';
import { AspectWriteLocks, WRITE_LOCK_COLLECTION, type WriteLockDocument } from './aspect-write-locks';
import { byAspect, byUrn, latestMatching, latestOfUrns } from './scan-filters';
import { writeVersioned } from './versioned-write';

const URN_ASPECT_ORDER = { urn: 1, aspect: 1 } as const;
const DELETE_HOLDER = 'a delete';

/** Idempotent: creating an index that exists with the same options is a no-op. */
async function ensureIndexes(rows: Collection<AspectDocument>): Promise<void> {
  await rows.createIndex({ urn: 1, aspect: 1, version: 1 }, { unique: true, name: 'urn_aspect_version' });
  // Latest rows in (urn, aspect) order, for scans over everything or a URN pattern.
  await rows.createIndex({ version: 1, urn: 1, aspect: 1 }, { name: 'version_urn_aspect' });
  // Latest rows of one aspect, for scans and counts by aspect.
  await rows.createIndex({ aspect: 1, version: 1, urn: 1 }, { name: 'aspect_version_urn' });
}

/** The aspects a URN can have rows of (from the model), or undefined when unknown. */
export type AspectNamesOf = (urn: string) => readonly string[] | undefined;

export class MongoAspectStore implements AspectStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly rows: Collection<AspectDocument>,
    private readonly locks: AspectWriteLocks,
    private readonly aspectNamesOf: AspectNamesOf,
  ) {}

  /**
   * Opens a store on `db` of `client`; the store owns the client and closes it. With
   * `aspectNamesOf`, a read of every aspect of a URN is point reads of its possible rows.
   */
  static async open(client: MongoClient, db: Db, aspectNamesOf: AspectNamesOf = () => undefined): Promise<MongoAspectStore> {
    const rows = db.collection<AspectDocument>(ASPECT_COLLECTION);
    await ensureIndexes(rows);
    const locks = await AspectWriteLocks.open(db.collection<WriteLockDocument>(WRITE_LOCK_COLLECTION));
    return new MongoAspectStore(client, rows, locks, aspectNamesOf);
  }

  async write(write: AspectWrite): Promise<WriteOutcome> {
    return writeVersioned(this.rows, this.locks, write);
  }

  async getLatest(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    if (urns.length === 0 || aspects?.length === 0) return [];
    if (aspects) {
      // In the order asked for, as the embedded store answers: URN by URN, then aspect by aspect.
      const ids = urns.flatMap((urn) => aspects.map((aspect) => rowId(urn, aspect, 0)));
      const found = new Map((await this.findByIds(ids)).map((doc) => [doc._id, doc]));
      return ids.flatMap((id) => found.get(id) ?? []).map(toStoredAspect);
    }
    const named = urns.map((urn) => this.aspectNamesOf(urn));
    if (named.every((names) => names !== undefined)) {
      const perUrn = await Promise.all(urns.map((urn, i) => this.getLatest([urn], named[i])));
      return perUrn.flatMap((rows) => rows.sort((a, b) => (a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : 0)));
    }
    const docs = await this.rows.find(latestOfUrns(urns)).sort(URN_ASPECT_ORDER).toArray();
    return urns.flatMap((urn) => docs.filter((doc) => doc.urn === urn)).map(toStoredAspect);
  }

  /**
   * Each id as a lone `_id` filter, in parallel: the only filter FerretDB answers from its key
   * rather than by scanning the collection (an `$in` of ids is a scan there).
   */
  private async findByIds(ids: readonly string[], projection?: { _id: 1 }): Promise<AspectDocument[]> {
    const docs = await Promise.all(ids.map((_id) => this.rows.findOne({ _id }, projection ? { projection } : {})));
    return docs.filter((doc): doc is AspectDocument => doc !== null);
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    const doc = await this.rows.findOne({ _id: rowId(urn, aspect, version) });
    return doc ? toStoredAspect(doc) : undefined;
  }

  async deleteAspect(urn: string, aspect: string): Promise<{ latest?: StoredAspect; rows: number }> {
    return this.locks.withLocks(urn, [aspect], DELETE_HOLDER, async () => {
      const latest = await this.rows.findOne({ _id: rowId(urn, aspect, 0) });
      const { deletedCount } = await this.rows.deleteMany(byAspect(urn, aspect));
      return { ...(latest ? { latest: toStoredAspect(latest) } : {}), rows: deletedCount };
    });
  }

  async deleteEntity(urn: string): Promise<{ latest: StoredAspect[]; rows: number }> {
    const aspects = await this.rows.distinct('aspect', { ...byUrn(urn), version: 0 });
    // Holding every aspect's lock, no change to them is half done when the rows go.
    return this.locks.withLocks(urn, aspects, DELETE_HOLDER, async () => {
      const latest = await this.rows.find({ ...byUrn(urn), version: 0 }).sort(URN_ASPECT_ORDER).toArray();
      const { deletedCount } = await this.rows.deleteMany(byUrn(urn));
      return { latest: latest.map(toStoredAspect), rows: deletedCount };
    });
  }

  async exists(urn: string): Promise<boolean> {
    const names = this.aspectNamesOf(urn);
    if (names) return (await this.findByIds(names.map((aspect) => rowId(urn, aspect, 0)), { _id: 1 })).length > 0;
    return (await this.rows.findOne(byUrn(urn), { projection: { _id: 1 } })) !== null;
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

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Connects to `uri`, creates the collections' indexes if missing, and returns a store that owns the connection. */
export async function openMongoAspectStore(uri: string, dbName: string, aspectNamesOf?: AspectNamesOf): Promise<MongoAspectStore> {
  const client = await MongoClient.connect(uri);
  try {
    return await MongoAspectStore.open(client, client.db(dbName), aspectNamesOf);
  } catch (error) {
    await client.close();
    throw error;
  }
}
