/** An insert against a unique index: the one write that is atomic on FerretDB as on MongoDB. */
import { MongoServerError, type Collection, type Document, type OptionalUnlessRequiredId } from 'mongodb';

const DUPLICATE_KEY = 11000;

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
