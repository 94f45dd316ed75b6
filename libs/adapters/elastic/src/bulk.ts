/** Several writes in one `_bulk` request; Elasticsearch applies the operations on one document in order. */
import type { Client } from '@elastic/elasticsearch';

export interface BulkOperation {
  /** `{index: {...}}`, `{update: {...}}` or `{delete: {...}}`. */
  readonly action: Record<string, Record<string, unknown>>;
  readonly body?: unknown;
}

interface BulkItem {
  status: number;
  _id: string;
  error?: { type: string; reason: string };
}

export async function sendBulk(client: Client, operations: readonly BulkOperation[], refresh: false | 'wait_for'): Promise<void> {
  if (!operations.length) return;
  const body = operations.flatMap((op) => (op.body === undefined ? [op.action] : [op.action, op.body as Record<string, unknown>]));
  const { body: res } = await client.bulk({ body, refresh });
  if (!res.errors) return;
  const failed = (res.items as Record<string, BulkItem>[]).map((item) => Object.values(item)[0]).filter((item) => item.error);
  const sample = failed.slice(0, 3).map((i) => `${i._id}: ${i.error?.type} ${i.error?.reason}`);
  throw new Error(`Elasticsearch bulk request failed for ${failed.length} of ${operations.length} operations: ${sample.join('; ')}`);
}
