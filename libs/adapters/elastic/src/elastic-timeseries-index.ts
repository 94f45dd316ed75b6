/** TimeseriesIndex on Elasticsearch: documents keyed by their identity, one index per (entity type, aspect). */
import {
  MAX_RESULT_WINDOW,
  type GenericTable,
  type IndexSize,
  type IndexTask,
  type TimeseriesAggregation,
  type TimeseriesDocument,
  type TimeseriesIndex,
  type TimeseriesQuery,
} from '@cairn/ports';
import { aggregateRows, type TimeseriesEventRow as EventRow } from '@cairn/search';
import type { ElasticConnection } from './elastic-connection';
import { taskStatus } from './es-tasks';
import { criterionQuery, planQuery, type Query } from './filter-query';
import { fromStoredTimeseries, type StoredTimeseriesDocument } from './timeseries-documents';
import { TimeseriesBulkBatch } from './timeseries-write-batch';
import type { TimeseriesIndices } from './timeseries-indices';

const SCROLL_PAGE = 1000;
const BYTES_PER_MB = 1024 * 1024;

function timeRange(range: { gte?: number; lte?: number; lt?: number }): Query[] {
  const bounds = Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined));
  return Object.keys(bounds).length ? [{ range: { timestampMillis: bounds } }] : [];
}

function isNotFound(err: unknown): boolean {
  return (err as { meta?: { statusCode?: number } }).meta?.statusCode === 404;
}

/**
 * A truncation with a time limit carries it in its `X-Opaque-Id`, so whichever process reads the
 * task's status knows the limit (and stops the task when the process that started it did not).
 */
const TIME_LIMITED = 'cairn-truncate';
const TIME_LIMIT = new RegExp(`^${TIME_LIMITED} timeoutMillis=(\\d+) index=(\\S+)$`);
const timeLimitHeader = (timeoutMillis: number, index: string) => `${TIME_LIMITED} timeoutMillis=${timeoutMillis} index=${index}`;
function timeLimitOf(headers: Record<string, string>): { timeoutMillis: number; index: string } | undefined {
  const m = TIME_LIMIT.exec(headers['X-Opaque-Id'] ?? '');
  return m ? { timeoutMillis: Number(m[1]), index: m[2]! } : undefined;
}

export class ElasticTimeseriesIndex implements TimeseriesIndex {
  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: TimeseriesIndices,
  ) {}

  batch(): TimeseriesBulkBatch {
    return new TimeseriesBulkBatch(this.conn, this.indices);
  }

  async upsert(d: TimeseriesDocument): Promise<void> {
    const batch = this.batch();
    await batch.upsert(d);
    await batch.flush();
  }

  /** The filter clauses of a query: urn, time range, and the filter over indexed fields (others never match). */
  private clauses(q: Omit<TimeseriesQuery, 'limit'>): Query[] {
    const resolve = this.indices.resolver(q.aspect);
    return [
      ...(q.urn !== undefined ? [{ term: { urn: q.urn } }] : []),
      ...timeRange({ gte: q.startTimeMillis, lte: q.endTimeMillis }),
      ...planQuery(q.filter ?? [], (c) => criterionQuery(c, resolve)),
    ];
  }

  async query(q: TimeseriesQuery): Promise<TimeseriesDocument[]> {
    const { body } = await this.conn.client.search({
      index: this.indices.name(q.entityType, q.aspect),
      ignore_unavailable: true,
      body: { query: { bool: { filter: this.clauses(q) } }, sort: [{ timestampMillis: 'desc' }], size: Math.min(q.limit, MAX_RESULT_WINDOW), track_total_hits: false },
    });
    return body.hits.hits.map((h: { _source: StoredTimeseriesDocument }) => fromStoredTimeseries(q.entityType, q.aspect, h._source));
  }

  /** Every selected document is read (scrolling), then grouped here with the port's exact semantics. */
  async aggregate(request: TimeseriesAggregation): Promise<GenericTable> {
    const rows: EventRow[] = [];
    try {
      const documents = this.conn.client.helpers.scrollDocuments<StoredTimeseriesDocument>({
        index: this.indices.name(request.entityType, request.aspect),
        size: SCROLL_PAGE,
        _source: ['urn', 'timestampMillis', 'messageId', 'event'],
        body: { query: { bool: { filter: this.clauses(request) } }, sort: ['_doc'] },
      });
      // The document's own fields are bucketable like the event's.
      for await (const d of documents) rows.push({ timestampMillis: d.timestampMillis, event: { ...d.event, urn: d.urn, ...(d.messageId ? { messageId: d.messageId } : {}) } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return aggregateRows(rows, request);
  }

  async countOlderThan(entityType: string, aspect: string, endTimeMillis: number): Promise<{ matching: number; total: number }> {
    const index = this.indices.name(entityType, aspect);
    const count = async (query: Query) => (await this.conn.client.count({ index, ignore_unavailable: true, body: { query } })).body.count as number;
    const [matching, total] = await Promise.all([count({ bool: { filter: timeRange({ lt: endTimeMillis }) } }), count({ match_all: {} })]);
    return { matching, total };
  }

  /**
   * A delete by query left running on the server; its task id is Elasticsearch's own (`<node>:<number>`).
   * Each batch is a scroll page of `batchSize`. `timeoutSeconds` limits the whole deletion: the task
   * is cancelled once it has run that long (what it deleted stays deleted) and its status says
   * `timed_out`; it is also each bulk request's timeout, as the reference passes it.
   */
  async startDeleteOlderThan(entityType: string, aspect: string, endTimeMillis: number, options: { batchSize: number; timeoutSeconds?: number }): Promise<string> {
    const index = await this.indices.ensure(entityType, aspect);
    // As in ElasticConnection.deleteByQuery: refreshed before, so recent writes are seen, and after.
    await this.conn.refresh([index]);
    const timeoutMillis = options.timeoutSeconds !== undefined && options.timeoutSeconds > 0 ? Math.ceil(options.timeoutSeconds * 1000) : undefined;
    const { body } = await this.conn.client.deleteByQuery(
      {
        index,
        wait_for_completion: false,
        conflicts: 'proceed',
        refresh: true,
        scroll_size: options.batchSize,
        ...(timeoutMillis !== undefined ? { timeout: `${timeoutMillis}ms` } : {}),
        body: { query: { bool: { filter: timeRange({ lt: endTimeMillis }) } } },
      },
      timeoutMillis !== undefined ? { opaqueId: timeLimitHeader(timeoutMillis, index) } : {},
    );
    const taskId = String(body.task);
    if (timeoutMillis !== undefined) this.stopWhenOverdue(taskId, timeoutMillis);
    return taskId;
  }

  /** Reads the task's status (which stops it when overdue) once the limit has passed, until it is done. */
  private stopWhenOverdue(taskId: string, delayMs: number): void {
    setTimeout(() => {
      this.task(taskId).then(
        (task) => {
          if (task && !task.completed && !task.status.timed_out) this.stopWhenOverdue(taskId, 50);
        },
        () => undefined,
      );
    }, delayMs).unref();
  }

  /** The task's status; a time-limited truncation found running past its limit is cancelled here. */
  async task(taskId: string): Promise<IndexTask | undefined> {
    let t;
    try {
      t = await taskStatus(this.conn.client, taskId);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const limit = timeLimitOf(t.headers);
    const overdue = limit !== undefined && t.runTimeNanos >= limit.timeoutMillis * 1e6;
    if (overdue && !t.completed) await this.cancel(taskId, limit.index);
    const stopped = overdue && (!t.completed || t.canceled);
    return { taskId, completed: t.completed, status: { ...t.status, timed_out: t.timedOut || stopped }, runTimeNanos: t.runTimeNanos };
  }

  private async cancel(taskId: string, index: string): Promise<void> {
    try {
      await this.conn.client.tasks.cancel({ task_id: taskId });
    } catch (err) {
      // Completed meanwhile.
      if (!isNotFound(err)) throw err;
    }
    // A cancelled deletion does not refresh at its end: what it deleted becomes visible now.
    await this.conn.refresh([index]);
  }

  async sizes(): Promise<IndexSize[]> {
    const aliases = await this.indices.existing();
    if (!aliases.length) return [];
    const { body } = await this.conn.client.cat.indices({ index: aliases, format: 'json', bytes: 'b', h: 'index,docs.count,pri.store.size' });
    const { body: aliasOf } = await this.conn.client.indices.getAlias({ index: aliases });
    const sizes: IndexSize[] = [];
    for (const row of body as { index: string; 'docs.count': string; 'pri.store.size': string }[]) {
      const indexName = Object.keys((aliasOf as Record<string, { aliases: Record<string, unknown> }>)[row.index]?.aliases ?? {}).find((a) => aliases.includes(a));
      const pair = indexName && this.indices.pairOf(indexName);
      if (!indexName || !pair || Number(row['docs.count']) === 0) continue;
      sizes.push({ indexName, entityName: pair.entityType, aspectName: pair.aspect, sizeMb: Number(row['pri.store.size']) / BYTES_PER_MB });
    }
    return sizes.sort((a, b) => (a.entityName + a.aspectName < b.entityName + b.aspectName ? -1 : 1));
  }

  async deleteByUrn(urn: string, range: { aspect?: string; startTimeMillis?: number; endTimeMillis?: number } = {}): Promise<number> {
    const filter = [{ term: { urn } }, ...timeRange({ gte: range.startTimeMillis, lte: range.endTimeMillis })];
    return this.conn.deleteByQuery(await this.indices.existing(range.aspect), { bool: { filter } });
  }

  async clear(): Promise<void> {
    await this.conn.deleteByQuery(await this.indices.existing(), { match_all: {} });
  }
}
