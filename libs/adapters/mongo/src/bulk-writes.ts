/**
 * Single-document updates, replacements and deletes of one collection made while the event loop
 * handles one round of I/O, sent as one unordered `bulkWrite`. Callers never have two writes of
 * one document in flight at once (a write lock or a token orders them), so the order inside a
 * request does not matter.
 */
import { MongoBulkWriteError, type AnyBulkWriteOperation, type Collection, type Document } from 'mongodb';
import { TickBatcher, type Settled } from './tick-batcher';

export class BulkWrites<T extends Document> {
  private readonly batcher: TickBatcher<AnyBulkWriteOperation<T>, void>;

  constructor(collection: Collection<T>) {
    this.batcher = new TickBatcher((ops) => writeEach(collection, ops));
  }

  /** Resolves once the write is applied; rejects with its own error only. */
  write(op: AnyBulkWriteOperation<T>): Promise<void> {
    return this.batcher.submit(op);
  }
}

async function writeEach<T extends Document>(collection: Collection<T>, ops: AnyBulkWriteOperation<T>[]): Promise<Settled<void>[]> {
  const settled: Settled<void>[] = ops.map(() => ({ ok: true, value: undefined }));
  try {
    await collection.bulkWrite(ops, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError) || error.writeConcernError) throw error;
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    for (const e of writeErrors) settled[e.index] = { ok: false, error: new Error(`write failed (code ${e.code}): ${e.errmsg ?? 'no message'}`) };
  }
  return settled;
}
