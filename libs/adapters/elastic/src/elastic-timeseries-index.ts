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

  /** A delete by query left running on the server; its task id is Elasticsearch's own (`<node>:<number>`). */
  async startDeleteOlderThan(entityType: string, aspect: string, endTimeMillis: number, options: { batchSize: number; timeoutSeconds?: number }): Promise<string> {
    const index = await this.indices.ensure(entityType, aspect);
    // As in ElasticConnection.deleteByQuery: refreshed before, so recent writes are seen, and after.
    await this.conn.refresh([index]);
    const { body } = await this.conn.client.deleteByQuery({
      index,
      wait_for_completion: false,
      conflicts: 'proceed',
      refresh: true,
      scroll_size: options.batchSize,
      ...(options.timeoutSeconds !== undefined ? { timeout: `${options.timeoutSeconds}s` } : {}),
      body: { query: { bool: { filter: timeRange({ lt: endTimeMillis }) } } },
    });
    return String(body.task);
  }

  async task(taskId: string): Promise<IndexTask | undefined> {
    try {
      const { completed, status, runTimeNanos } = await taskStatus(this.conn.client, taskId);
      return { taskId, completed, status, runTimeNanos };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
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
