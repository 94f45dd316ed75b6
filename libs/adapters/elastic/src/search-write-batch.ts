/** Upserts and deletes of search documents, sent as one bulk request (per thousand) on flush. */
import type { SearchFields, SearchWriteBatch } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { entityDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';
import type { EntityIndices } from './entity-indices';
import { fieldUpsertBody, UPDATE_RETRIES } from './field-upsert-script';

/** undefined values are left out like absent ones; null clears. */
function definedFields(fields: SearchFields): SearchFields {
  const defined: SearchFields = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (value !== undefined) defined[name] = value;
  }
  return defined;
}

/** One write of the batch; an upsert's fields grow with the document's later upserts up to its next delete. */
type PendingWrite =
  | { readonly kind: 'upsert'; readonly index: string; readonly id: string; readonly fields: SearchFields }
  | { readonly kind: 'delete'; readonly index: string; readonly id: string };

/**
 * An entity's aspects mostly arrive together, so a document's upserts up to its next delete merge
 * into one update (later fields win, as applying them in turn would). Elasticsearch 7 refreshes a
 * shard to read a document changed since its last refresh, so updating one document several
 * times in a bulk request costs a refresh each time.
 */
export class SearchBulkBatch implements SearchWriteBatch {
  private writes: PendingWrite[] = [];
  /** By document: the fields of its upsert that no delete has followed yet. */
  private open = new Map<string, SearchFields>();
  private readonly entityTypes = new Set<string>();

  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: EntityIndices,
  ) {}

  async upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void> {
    this.entityTypes.add(entityType);
    const index = this.indices.name(entityType);
    const id = entityDocumentId(urn);
    const key = `${index}/${id}`;
    const merged = this.open.get(key);
    if (merged) Object.assign(merged, definedFields(fields));
    else {
      const own = definedFields(fields);
      this.open.set(key, own);
      this.writes.push({ kind: 'upsert', index, id, fields: own });
    }
  }

  async deleteDocument(entityType: string, urn: string): Promise<void> {
    this.entityTypes.add(entityType);
    const index = this.indices.name(entityType);
    const id = entityDocumentId(urn);
    this.open.delete(`${index}/${id}`);
    this.writes.push({ kind: 'delete', index, id });
  }

  async flush(): Promise<void> {
    const writes = this.writes;
    this.writes = [];
    this.open = new Map();
    // Indices exist before any write, so none is auto-created without its mapping.
    await Promise.all([...this.entityTypes].map((t) => this.indices.ensure(t)));
    const operations = writes.map((w): BulkOperation =>
      w.kind === 'upsert'
        ? { action: { update: { _index: w.index, _id: w.id, retry_on_conflict: UPDATE_RETRIES } }, body: fieldUpsertBody(w.fields) }
        : { action: { delete: { _index: w.index, _id: w.id } } },
    );
    await sendBulk(this.conn.client, operations, this.conn.writeRefresh);
  }
}
