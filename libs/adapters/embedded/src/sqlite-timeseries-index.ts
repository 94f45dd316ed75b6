/** TimeseriesIndex on SQLite: documents keyed by their identity so a re-sent value overwrites. */
import type {
  GenericTable,
  IndexSize,
  IndexTask,
  TimeseriesAggregation,
  TimeseriesDocument,
  TimeseriesIndex,
  TimeseriesQuery,
  TimeseriesWriteBatch,
} from '@cairn/ports';
import { aggregateRows } from '@cairn/search';
import type { EmbeddedDb } from './database';
import { matches, narrowing, type EventRow } from './timeseries/event-fields';

/** The node part of task ids (`<node>:<number>`), as the reference's search engine names them. */
export const EMBEDDED_NODE_ID = 'cairn-embedded';
const KEPT_TASKS = 1000;
const BYTES_PER_MB = 1024 * 1024;

interface Scan {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn?: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
}

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
  private readonly upsertAll;
  private readonly tasks = new Map<string, IndexTask>();
  private taskSeq = 0;

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
    this.upsertAll = db.transaction((docs: readonly TimeseriesDocument[]) => {
      for (const d of docs) this.upsertOne(d);
    });
  }

  async upsert(d: TimeseriesDocument): Promise<void> {
    this.upsertOne(d);
  }

  private upsertOne(d: TimeseriesDocument): void {
    this.upsertStmt.run(d.entityType, d.aspect, d.urn, d.timestampMillis, d.eventGranularity ?? '', d.partitionSpec ?? '', d.messageId ?? '', d.event, d.systemMetadata ?? null);
  }

  /** A change-log batch's documents in one transaction. */
  batch(): TimeseriesWriteBatch {
    const docs: TimeseriesDocument[] = [];
    return {
      upsert: async (d) => void docs.push(d),
      flush: async () => this.upsertAll(docs.splice(0)),
    };
  }


  private scanSql(q: Scan): { sql: string; params: unknown[] } {
    const clauses = ['entity_type = ?', 'aspect = ?'];
    const params: unknown[] = [q.entityType, q.aspect];
    if (q.urn !== undefined) clauses.push('urn = ?'), params.push(q.urn);
    if (q.startTimeMillis !== undefined) clauses.push('timestamp_millis >= ?'), params.push(q.startTimeMillis);
    if (q.endTimeMillis !== undefined) clauses.push('timestamp_millis <= ?'), params.push(q.endTimeMillis);
    return { sql: clauses.join(' AND '), params };
  }

  /** Documents of a scan, newest first, passing the filter (which is evaluated on the events). */
  private *rows(scan: Scan, filter: TimeseriesQuery['filter']): Generator<EventRow> {
    const narrowed = { ...narrowing(filter ?? []), ...Object.fromEntries(Object.entries(scan).filter(([, v]) => v !== undefined)) } as Scan;
    const { sql, params } = this.scanSql(narrowed);
    for (const r of this.db.prepare(`SELECT * FROM timeseries_documents WHERE ${sql} ORDER BY timestamp_millis DESC`).iterate(...params) as Iterable<TsRow>) {
      const row = { doc: toDoc(r), event: JSON.parse(r.event) as Record<string, unknown> };
      if (matches(filter ?? [], row)) yield row;
    }
  }

  async query(q: TimeseriesQuery): Promise<TimeseriesDocument[]> {
    if (!q.filter?.length) {
      const { sql, params } = this.scanSql(q);
      const rows = this.db.prepare(`SELECT * FROM timeseries_documents WHERE ${sql} ORDER BY timestamp_millis DESC LIMIT ?`).all(...params, q.limit) as TsRow[];
      return rows.map(toDoc);
    }
    const out: TimeseriesDocument[] = [];
    for (const row of this.rows(q, q.filter)) {
      if (out.length >= q.limit) break;
      out.push(row.doc);
    }
    return out;
  }

  async aggregate(request: TimeseriesAggregation): Promise<GenericTable> {
    const rows = [...this.rows({ entityType: request.entityType, aspect: request.aspect }, request.filter)];
    // The document's own fields are bucketable like the event's, as in Elasticsearch.
    const withDocumentFields = ({ doc, event }: EventRow) => ({
      timestampMillis: doc.timestampMillis,
      event: { ...event, urn: doc.urn, ...(doc.messageId !== undefined ? { messageId: doc.messageId } : {}) },
    });
    return aggregateRows(rows.map(withDocumentFields), request);
  }

  async countOlderThan(entityType: string, aspect: string, endTimeMillis: number): Promise<{ matching: number; total: number }> {
    const row = this.db
      .prepare('SELECT COUNT(*) AS total, COALESCE(SUM(timestamp_millis < ?), 0) AS matching FROM timeseries_documents WHERE entity_type = ? AND aspect = ?')
      .get(endTimeMillis, entityType, aspect) as { total: number; matching: number };
    return { matching: row.matching, total: row.total };
  }

  /**
   * Deletes in batches of `batchSize` rows, each its own transaction on a later turn of the event
   * loop. `timeoutSeconds` (none when absent or 0) limits the whole deletion, as on Elasticsearch:
   * once it has run that long it stops after the batch in progress, keeping what it deleted, and
   * its status says `timed_out`.
   */
  async startDeleteOlderThan(entityType: string, aspect: string, endTimeMillis: number, options: { batchSize: number; timeoutSeconds?: number }): Promise<string> {
    const taskId = `${EMBEDDED_NODE_ID}:${++this.taskSeq}`;
    const { matching } = await this.countOlderThan(entityType, aspect, endTimeMillis);
    const started = process.hrtime.bigint();
    const deadline = options.timeoutSeconds !== undefined && options.timeoutSeconds > 0 ? Date.now() + options.timeoutSeconds * 1000 : Infinity;
    const status = { total: matching, deleted: 0, batches: 0, timed_out: false };
    const batch = this.db.prepare(
      `DELETE FROM timeseries_documents WHERE (entity_type, aspect, urn, timestamp_millis, event_granularity, partition_spec, message_id) IN
       (SELECT entity_type, aspect, urn, timestamp_millis, event_granularity, partition_spec, message_id FROM timeseries_documents
        WHERE entity_type = ? AND aspect = ? AND timestamp_millis < ? LIMIT ?)`,
    );
    const record = (completed: boolean) => this.keepTask({ taskId, completed, status: { ...status }, runTimeNanos: Number(process.hrtime.bigint() - started) });
    record(false);
    // Batches run on later turns of the event loop, so reads and writes go on meanwhile.
    const step = () => {
      const deleted = batch.run(entityType, aspect, endTimeMillis, options.batchSize).changes;
      // As a scroll page: an empty last page is not a batch.
      if (deleted > 0) status.batches++;
      status.deleted += deleted;
      const finished = deleted < options.batchSize;
      status.timed_out = !finished && Date.now() >= deadline;
      const done = finished || status.timed_out;
      record(done);
      if (!done) setImmediate(step);
    };
    setImmediate(step);
    return taskId;
  }

  private keepTask(task: IndexTask): void {
    this.tasks.delete(task.taskId);
    this.tasks.set(task.taskId, task);
    if (this.tasks.size > KEPT_TASKS) this.tasks.delete(this.tasks.keys().next().value as string);
  }

  async task(taskId: string): Promise<IndexTask | undefined> {
    return this.tasks.get(taskId);
  }

  async sizes(): Promise<IndexSize[]> {
    const rows = this.db
      .prepare('SELECT entity_type, aspect, SUM(length(event) + COALESCE(length(system_metadata), 0)) AS bytes FROM timeseries_documents GROUP BY entity_type, aspect ORDER BY entity_type, aspect')
      .all() as { entity_type: string; aspect: string; bytes: number }[];
    return rows.map((r) => ({
      indexName: `${r.entity_type}_${r.aspect}aspect_v1`.toLowerCase(),
      entityName: r.entity_type,
      aspectName: r.aspect,
      sizeMb: r.bytes / BYTES_PER_MB,
    }));
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
