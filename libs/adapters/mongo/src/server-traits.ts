/**
 * What the store adapts to in the server behind it. Reading many documents by `_id`: MongoDB
 * answers `{_id: {$in: ids}}` from its index in one round trip; FerretDB 1.x pushes down only a
 * filter that is a lone `_id` (anything else, `$in` included, scans the collection), so there each
 * id is its own point read, all in flight at once. Updates: MongoDB applies one to a document
 * atomically; FerretDB 1.x reads the document, then writes it whole by `_id`, so two concurrent
 * updates of one document can lose one. Indexes: FerretDB 1.x reads none but `_id`'s, so another
 * index serves no query there and costs every insert its keys, each one parsed from the document's
 * JSON.
 */
import type { Collection, Db, Document, Filter } from 'mongodb';

export type IdLookup = <T extends Document & { _id: string }>(collection: Collection<T>, ids: readonly string[]) => Promise<T[]>;

const oneQuery: IdLookup = async <T extends Document & { _id: string }>(collection: Collection<T>, ids: readonly string[]) => {
  if (ids.length === 0) return [];
  return (await collection.find({ _id: { $in: [...ids] } } as Filter<T>).toArray()) as T[];
};

const pointReads: IdLookup = async <T extends Document & { _id: string }>(collection: Collection<T>, ids: readonly string[]) => {
  const found = await Promise.all(ids.map((_id) => collection.findOne({ _id } as Filter<T>)));
  return found.filter((doc) => doc !== null) as T[];
};

/** Whether buildInfo comes from FerretDB (1.x says `ferretdbVersion`; some releases nest a `ferretdb` document). */
export function isFerretDb(buildInfo: Readonly<Record<string, unknown>>): boolean {
  return 'ferretdbVersion' in buildInfo || 'ferretdb' in buildInfo;
}

export interface ServerTraits {
  readonly byIds: IdLookup;
  /** Whether an update's read and write of a document are one atomic step. */
  readonly atomicUpdates: boolean;
  /** Whether queries read indexes other than `_id`'s. */
  readonly secondaryIndexes: boolean;
}

export async function serverTraits(db: Db): Promise<ServerTraits> {
  return isFerretDb(await db.admin().command({ buildInfo: 1 }))
    ? { byIds: pointReads, atomicUpdates: false, secondaryIndexes: false }
    : { byIds: oneQuery, atomicUpdates: true, secondaryIndexes: true };
}
