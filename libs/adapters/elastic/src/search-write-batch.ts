/** Upserts and deletes of search documents, sent as one bulk request (per thousand) on flush. */
import type { SearchFields, SearchWriteBatch } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { entityDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';
import type { EntityIndices } from './entity-indices';
import { fieldUpsertBody, UPDATE_RETRIES } from './field-upsert-script';

/** undefined values are left out like absent ones; null clears. */
function definedFields(fields: SearchFields): SearchFields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export class SearchBulkBatch implements SearchWriteBatch {
  private readonly operations: BulkOperation[] = [];
  private readonly entityTypes = new Set<string>();

  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: EntityIndices,
  ) {}

  async upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void> {
    this.entityTypes.add(entityType);
    this.operations.push({
      action: { update: { _index: this.indices.name(entityType), _id: entityDocumentId(urn), retry_on_conflict: UPDATE_RETRIES } },
      body: fieldUpsertBody(definedFields(fields)),
    });
  }

  async deleteDocument(entityType: string, urn: string): Promise<void> {
    this.entityTypes.add(entityType);
    this.operations.push({ action: { delete: { _index: this.indices.name(entityType), _id: entityDocumentId(urn) } } });
  }

  async flush(): Promise<void> {
    // Indices exist before any write, so none is auto-created without its mapping.
    await Promise.all([...this.entityTypes].map((t) => this.indices.ensure(t)));
    await sendBulk(this.conn.client, this.operations.splice(0), this.conn.writeRefresh);
  }
}
