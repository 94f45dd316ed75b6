/** An insert against a unique index: the one write that is atomic on FerretDB as on MongoDB. */
import { MongoBulkWriteError, MongoServerError, type Collection, type Document, type OptionalUnlessRequiredId } from 'mongodb';
import type { Settled } from './tick-batcher';

export const DUPLICATE_KEY = 11000;

/** False when a document with the same unique key is already there. */
export async function insertUnlessTaken<T extends Document>(collection: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await collection.insertOne(doc);
    return true;
  } catch (error) {
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return false;
    throw error;
  }
}

/**
 * Each document inserted unless its unique key is taken, in one request; each is atomic on its own
 * (a document whose key another one of the same call took is answered false too).
 */
export async function insertEachUnlessTaken<T extends Document>(collection: Collection<T>, docs: OptionalUnlessRequiredId<T>[]): Promise<Settled<boolean>[]> {
  const settled: Settled<boolean>[] = docs.map(() => ({ ok: true, value: true }));
  if (docs.length === 0) return settled;
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError) || error.writeConcernError) throw error;
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    for (const e of writeErrors) {
      settled[e.index] = e.code === DUPLICATE_KEY ? { ok: true, value: false } : { ok: false, error: new Error(`insert failed (code ${e.code}): ${e.errmsg ?? 'no message'}`) };
    }
  }
  return settled;
}
