/** Runs recorded and forgotten per (urn, aspect), sent on flush; forgetting a whole URN is a delete by query. */
import type { AspectRun, SystemMetadataWriteBatch } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { systemMetadataDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';

/** The reference's document shape. */
export interface StoredAspectRun {
  urn: string;
  aspect: string;
  runId: string;
  lastUpdated: number;
  registryName?: string;
  registryVersion?: string;
}

function toStoredRun(run: AspectRun): StoredAspectRun {
  return {
    urn: run.urn,
    aspect: run.aspect,
    runId: run.runId,
    lastUpdated: run.lastObserved,
    ...(run.registryName !== undefined ? { registryName: run.registryName } : {}),
    ...(run.registryVersion !== undefined ? { registryVersion: run.registryVersion } : {}),
  };
}

export class SystemMetadataBulkBatch implements SystemMetadataWriteBatch {
  private readonly writes: Array<BulkOperation | { forgetUrn: string }> = [];

  constructor(
    private readonly conn: ElasticConnection,
    private readonly index: string,
  ) {}

  async record(run: AspectRun): Promise<void> {
    this.writes.push({ action: { index: { _index: this.index, _id: systemMetadataDocumentId(run.urn, run.aspect) } }, body: { ...toStoredRun(run) } });
  }

  async forget(urn: string, aspect?: string): Promise<void> {
    this.writes.push(aspect === undefined ? { forgetUrn: urn } : { action: { delete: { _index: this.index, _id: systemMetadataDocumentId(urn, aspect) } } });
  }

  async flush(): Promise<void> {
    let pending: BulkOperation[] = [];
    for (const w of this.writes.splice(0)) {
      if ('action' in w) {
        pending.push(w);
        continue;
      }
      await sendBulk(this.conn.client, pending, this.conn.writeRefresh);
      pending = [];
      await this.conn.deleteByQuery([this.index], { term: { urn: w.forgetUrn } });
    }
    await sendBulk(this.conn.client, pending, this.conn.writeRefresh);
  }
}
