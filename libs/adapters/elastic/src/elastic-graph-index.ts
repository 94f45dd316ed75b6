/**
 * GraphIndex on Elasticsearch (`graph_service_v1`): one document per edge and declaring aspect,
 * in the reference's shape, plus one document per (source, aspect) listing the ids of the edges
 * it declares (see graph-write-batch.ts).
 */
import { MAX_RESULT_WINDOW, type Edge, type GraphIndex, type Reference } from '@cairn/ports';
import { toEdge, type EdgeDocument } from './edge-documents';
import type { ElasticConnection } from './elastic-connection';
import { GraphBulkBatch } from './graph-write-batch';
import { indexSettings } from './index-settings';
import type { IndexDefinition } from './versioned-index';

const keyword = { type: 'keyword' };
const node = { properties: { urn: keyword, entityType: keyword } };

/**
 * Bounds of the exact count of a node's edges in one request: the edge documents each shard
 * reports keys for (all of them, up to `shardKeys`), and the keys declared by several aspects
 * returned. Past either, the keys are paged through instead, `keysPage` at a time.
 */
export interface EdgeCountBounds {
  readonly shardKeys: number;
  readonly repeatedKeys: number;
  readonly keysPage: number;
}

const EDGE_COUNT_BOUNDS: EdgeCountBounds = { shardKeys: 65_536, repeatedKeys: 10_000, keysPage: 10_000 };

export function graphIndexDefinition(conn: ElasticConnection): IndexDefinition {
  return {
    name: conn.names.graph(),
    settings: indexSettings(conn.settings),
    mappings: {
      dynamic: 'strict',
      properties: {
        source: node,
        destination: node,
        relationshipType: keyword,
        aspect: keyword,
        /** (source, type, destination): an edge declared by several aspects is read once. */
        edgeKey: keyword,
        createdOn: { type: 'long' },
        createdActor: keyword,
        declaredEdges: { properties: { source: keyword, aspect: keyword, ids: { type: 'keyword', index: false, doc_values: false } } },
      },
    },
  };
}


export class ElasticGraphIndex implements GraphIndex {
  private readonly index: string;

  constructor(
    private readonly conn: ElasticConnection,
    private readonly bounds: EdgeCountBounds = EDGE_COUNT_BOUNDS,
  ) {
    this.index = conn.names.graph();
  }

  batch(): GraphBulkBatch {
    return new GraphBulkBatch(this.conn, this.index);
  }

  async replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void> {
    const batch = this.batch();
    await batch.replaceEdges(source, viaAspect, edges);
    await batch.flush();
  }

  async removeNode(urn: string): Promise<void> {
    const batch = this.batch();
    await batch.removeNode(urn);
    await batch.flush();
  }

  async edges(q: { urn: string; direction: 'INCOMING' | 'OUTGOING'; types?: readonly string[]; start: number; count: number }): Promise<{ total: number; edges: Edge[] }> {
    const filter: object[] = [{ term: { [q.direction === 'OUTGOING' ? 'source.urn' : 'destination.urn']: q.urn } }];
    if (q.types?.length) filter.push({ terms: { relationshipType: q.types } });
    const from = Math.min(q.start, MAX_RESULT_WINDOW);
    const { body } = await this.conn.client.search({
      index: this.index,
      body: {
        query: { bool: { filter } },
        // One hit per (source, type, destination): the one with the latest createdOn.
        collapse: { field: 'edgeKey' },
        sort: [{ relationshipType: 'asc' }, { 'source.urn': 'asc' }, { 'destination.urn': 'asc' }, { createdOn: { order: 'desc', missing: '_last' } }],
        from,
        size: Math.max(0, Math.min(q.count, MAX_RESULT_WINDOW - from)),
        // The total is the documents less the repeats of edges several aspects declare. A
        // cardinality aggregation is approximate even far below its threshold: at 500 edges it
        // was one short about once in twenty runs.
        track_total_hits: true,
        aggs: { repeated: { terms: { field: 'edgeKey', min_doc_count: 2, size: this.bounds.repeatedKeys, shard_size: this.bounds.shardKeys } } },
      },
    });
    const documents = body.hits.total.value as number;
    const repeated = body.aggregations.repeated.buckets as { doc_count: number }[];
    const exact = documents <= this.bounds.shardKeys && repeated.length < this.bounds.repeatedKeys;
    const total = exact ? repeated.reduce((n, b) => n - (b.doc_count - 1), documents) : await this.distinctKeys(filter);
    return { total, edges: body.hits.hits.map((h: { _source: EdgeDocument }) => toEdge(h._source)) };
  }

  /** The number of distinct edge keys the filter matches, paged through in key order (exact on any number of shards). */
  private async distinctKeys(filter: readonly object[]): Promise<number> {
    let keys = 0;
    for (let after: unknown; ; ) {
      const { body } = await this.conn.client.search({
        index: this.index,
        body: {
          size: 0,
          query: { bool: { filter } },
          aggs: { keys: { composite: { size: this.bounds.keysPage, sources: [{ key: { terms: { field: 'edgeKey' } } }], ...(after ? { after } : {}) } } },
        },
      });
      const page = body.aggregations.keys as { buckets: unknown[]; after_key?: unknown };
      keys += page.buckets.length;
      if (page.buckets.length < this.bounds.keysPage || !page.after_key) return keys;
      after = page.after_key;
    }
  }

  /** An edge document per (source, aspect, type) into one destination, so no collapsing is needed. */
  async references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }> {
    const from = Math.min(page.start, MAX_RESULT_WINDOW);
    const { body } = await this.conn.client.search({
      index: this.index,
      body: {
        query: { bool: { filter: [{ term: { 'destination.urn': urn } }] } },
        sort: [{ 'source.urn': 'asc' }, { aspect: 'asc' }, { relationshipType: 'asc' }],
        from,
        size: Math.max(0, Math.min(page.count, MAX_RESULT_WINDOW - from)),
        track_total_hits: true,
        _source: ['source.urn', 'aspect', 'relationshipType'],
      },
    });
    const references = body.hits.hits.map((h: { _source: EdgeDocument }) => ({ source: h._source.source.urn, aspect: h._source.aspect, relationshipType: h._source.relationshipType }));
    return { total: body.hits.total.value, references };
  }

  async clear(): Promise<void> {
    await this.conn.deleteByQuery([this.index], { match_all: {} });
  }

  /** Nothing is deferred: every field of an edge document is indexed as it is written. */
  clearForRebuild(): Promise<void> {
    return this.clear();
  }

  async rebuilt(): Promise<void> {}
}
