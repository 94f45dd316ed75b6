/** Writes sent in `_bulk` requests; Elasticsearch applies the operations on one document in order. */
import type { Client } from '@elastic/elasticsearch';

export interface BulkOperation {
  /** `{index: {...}}`, `{update: {...}}` or `{delete: {...}}`. */
  readonly action: Record<string, Record<string, unknown>>;
  readonly body?: Record<string, unknown>;
}

/** Operations per request, so one request stays a few megabytes at most. */
const OPERATIONS_PER_REQUEST = 1000;

/**
 * The answer reduced to what is read: a full item (index, version, shards, sequence number) is
 * about 280 bytes, which Elasticsearch writes and this process parses for every operation.
 */
const ANSWER_FIELDS = 'errors,items.*._id,items.*.error';

interface BulkItem {
  status: number;
  _id: string;
  error?: { type: string; reason: string };
}

async function sendChunk(client: Client, operations: readonly BulkOperation[], refresh: false | 'wait_for'): Promise<void> {
  const body = operations.flatMap((op) => (op.body === undefined ? [op.action] : [op.action, op.body]));
  const { body: res } = await client.bulk({ body, refresh, filter_path: ANSWER_FIELDS });
  if (!res.errors) return;
  // A delete of a missing document is not an error (404 without `error`).
  const failed = (res.items as Record<string, BulkItem>[]).map((item) => Object.values(item)[0]).filter((item) => item.error);
  const sample = failed.slice(0, 3).map((i) => `${i._id}: ${i.error?.type} ${i.error?.reason}`);
  throw new Error(`Elasticsearch bulk request failed for ${failed.length} of ${operations.length} operations: ${sample.join('; ')}`);
}

/** Sends the operations in order, in requests of at most OPERATIONS_PER_REQUEST. */
export async function sendBulk(client: Client, operations: readonly BulkOperation[], refresh: false | 'wait_for'): Promise<void> {
  for (let i = 0; i < operations.length; i += OPERATIONS_PER_REQUEST) await sendChunk(client, operations.slice(i, i + OPERATIONS_PER_REQUEST), refresh);
}
