/** Time-series documents, indexed by identity in one bulk request (per thousand) on flush. */
import type { TimeseriesDocument, TimeseriesWriteBatch } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { timeseriesDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';
import { toStoredTimeseries } from './timeseries-documents';
import type { TimeseriesIndices } from './timeseries-indices';

export class TimeseriesBulkBatch implements TimeseriesWriteBatch {
  private readonly operations: BulkOperation[] = [];
  private readonly pairs = new Map<string, { entityType: string; aspect: string }>();

  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: TimeseriesIndices,
  ) {}

  async upsert(d: TimeseriesDocument): Promise<void> {
    const index = this.indices.name(d.entityType, d.aspect);
    this.pairs.set(index, { entityType: d.entityType, aspect: d.aspect });
    this.operations.push({ action: { index: { _index: index, _id: timeseriesDocumentId(d) } }, body: toStoredTimeseries(d) });
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pairs.values()].map((p) => this.indices.ensure(p.entityType, p.aspect)));
    await sendBulk(this.conn.client, this.operations.splice(0), this.conn.writeRefresh);
  }
}
