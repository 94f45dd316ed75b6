/** TimeseriesIndex on SQLite: documents keyed by their identity so a re-sent value overwrites. */
import type { TimeseriesDocument, TimeseriesIndex, TimeseriesQuery } from '@cairn/ports';
import type { EmbeddedDb } from './database';

interface TsRow {
  entity_type: string;
  aspect: string;
  urn: string;
  timestamp_millis: number;
  event_granularity: string;
  partition_spec: string;
  message_id: string;
  event: string;
  system_metadata: string | null;
}

const toDoc = (r: TsRow): TimeseriesDocument => ({
  entityType: r.entity_type,
  aspect: r.aspect,
  urn: r.urn,
  timestampMillis: r.timestamp_millis,
  ...(r.event_granularity ? { eventGranularity: r.event_granularity } : {}),
  ...(r.partition_spec ? { partitionSpec: r.partition_spec } : {}),
  ...(r.message_id ? { messageId: r.message_id } : {}),
  event: r.event,
  ...(r.system_metadata ? { systemMetadata: r.system_metadata } : {}),
});

export class SqliteTimeseriesIndex implements TimeseriesIndex {
  private readonly upsertStmt;

  constructor(private readonly db: EmbeddedDb) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS timeseries_documents (
        entity_type TEXT NOT NULL, aspect TEXT NOT NULL, urn TEXT NOT NULL, timestamp_millis INTEGER NOT NULL,
        event_granularity TEXT NOT NULL, partition_spec TEXT NOT NULL, message_id TEXT NOT NULL,
        event TEXT NOT NULL, system_metadata TEXT,
        PRIMARY KEY (entity_type, aspect, urn, timestamp_millis, event_granularity, partition_spec, message_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS timeseries_documents_time ON timeseries_documents (entity_type, aspect, timestamp_millis);
      CREATE INDEX IF NOT EXISTS timeseries_documents_urn ON timeseries_documents (urn, aspect, timestamp_millis);
    `);
    this.upsertStmt = db.prepare(
      `INSERT OR REPLACE INTO timeseries_documents (entity_type, aspect, urn, timestamp_millis, event_granularity, partition_spec, message_id, event, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  async upsert(d: TimeseriesDocument): Promise<void> {
    this.upsertStmt.run(d.entityType, d.aspect, d.urn, d.timestampMillis, d.eventGranularity ?? '', d.partitionSpec ?? '', d.messageId ?? '', d.event, d.systemMetadata ?? null);
  }

  async query(q: TimeseriesQuery): Promise<TimeseriesDocument[]> {
    const clauses = ['entity_type = ?', 'aspect = ?'];
    const params: unknown[] = [q.entityType, q.aspect];
    if (q.urn !== undefined) clauses.push('urn = ?'), params.push(q.urn);
    if (q.startTimeMillis !== undefined) clauses.push('timestamp_millis >= ?'), params.push(q.startTimeMillis);
    if (q.endTimeMillis !== undefined) clauses.push('timestamp_millis <= ?'), params.push(q.endTimeMillis);
    const rows = this.db
      .prepare(`SELECT * FROM timeseries_documents WHERE ${clauses.join(' AND ')} ORDER BY timestamp_millis DESC LIMIT ?`)
      .all(...params, q.limit) as TsRow[];
    return rows.map(toDoc);
  }

  async deleteByUrn(urn: string, range: { aspect?: string; startTimeMillis?: number; endTimeMillis?: number } = {}): Promise<number> {
    const clauses = ['urn = ?'];
    const params: unknown[] = [urn];
    if (range.aspect !== undefined) clauses.push('aspect = ?'), params.push(range.aspect);
    if (range.startTimeMillis !== undefined) clauses.push('timestamp_millis >= ?'), params.push(range.startTimeMillis);
    if (range.endTimeMillis !== undefined) clauses.push('timestamp_millis <= ?'), params.push(range.endTimeMillis);
    return this.db.prepare(`DELETE FROM timeseries_documents WHERE ${clauses.join(' AND ')}`).run(...params).changes;
  }

  async clear(): Promise<void> {
    this.db.exec('DELETE FROM timeseries_documents');
  }
}
