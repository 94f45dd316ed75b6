/** GraphIndex on Elasticsearch: edges keyed by (source, aspect, type, destination), replaced per declaring aspect. */
import { createHash } from 'node:crypto';
import type { Edge, GraphIndex, Reference } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { declaredEdgesDocumentId, edgeDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';

/** Deepest page Elasticsearch serves with from/size (its default max_result_window). */
const RESULT_WINDOW = 10_000;

interface EdgeDocument {
  source: { urn: string; entityType: string };
  destination: { urn: string; entityType: string };
  relationshipType: string;
  aspect: string;
  edgeKey: string;
  createdOn?: number;
  createdActor?: string;
}

interface DeclaredEdges {
  declaredEdges: { source: string; aspect: string; ids: string[] };
}

function entityTypeOf(urn: string): string {
  return /^urn:li:([^:]+):/.exec(urn)?.[1] ?? '';
}

function toDocument(aspect: string, e: Edge): EdgeDocument {
  return {
    source: { urn: e.source, entityType: entityTypeOf(e.source) },
    destination: { urn: e.destination, entityType: entityTypeOf(e.destination) },
    relationshipType: e.relationshipType,
    aspect,
    edgeKey: createHash('sha256').update([e.source, e.relationshipType, e.destination].join('\u0000')).digest('hex'),
    ...(e.createdOn !== undefined ? { createdOn: e.createdOn } : {}),
    ...(e.createdActor !== undefined ? { createdActor: e.createdActor } : {}),
  };
}

function toEdge(d: EdgeDocument): Edge {
  return {
    source: d.source.urn,
    destination: d.destination.urn,
    relationshipType: d.relationshipType,
    ...(d.createdOn !== undefined ? { createdOn: d.createdOn } : {}),
    ...(d.createdActor !== undefined ? { createdActor: d.createdActor } : {}),
  };
}

export class ElasticGraphIndex implements GraphIndex {
  private readonly index: string;

  constructor(private readonly conn: ElasticConnection) {
    this.index = conn.names.graph();
  }

  async replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void> {
    const declaredId = declaredEdgesDocumentId(source, viaAspect);
    const { body, statusCode } = await this.conn.client.get({ index: this.index, id: declaredId }, { ignore: [404] });
    const before = statusCode === 404 ? [] : (body._source as DeclaredEdges).declaredEdges.ids;
    const docs = new Map(edges.map((e) => [edgeDocumentId(source, viaAspect, e.relationshipType, e.destination), toDocument(viaAspect, e)]));
    const ops: BulkOperation[] = [
      ...before.filter((id) => !docs.has(id)).map((id) => ({ action: { delete: { _index: this.index, _id: id } } })),
      ...[...docs].map(([id, doc]) => ({ action: { index: { _index: this.index, _id: id } }, body: doc })),
      docs.size
        ? { action: { index: { _index: this.index, _id: declaredId } }, body: { declaredEdges: { source, aspect: viaAspect, ids: [...docs.keys()] } } }
        : { action: { delete: { _index: this.index, _id: declaredId } } },
    ];
    await sendBulk(this.conn.client, ops, this.conn.writeRefresh);
  }

  async removeNode(urn: string): Promise<void> {
    // Delete by query only sees refreshed documents; node removal is rare enough to refresh for.
    await this.conn.refresh([this.index]);
    const should = [{ term: { 'source.urn': urn } }, { term: { 'destination.urn': urn } }, { term: { 'declaredEdges.source': urn } }];
    await this.conn.client.deleteByQuery({
      index: this.index,
      conflicts: 'proceed',
      refresh: this.conn.deleteByQueryRefresh,
      body: { query: { bool: { should, minimum_should_match: 1 } } },
    });
  }

  async edges(q: { urn: string; direction: 'INCOMING' | 'OUTGOING'; types?: readonly string[]; start: number; count: number }): Promise<{ total: number; edges: Edge[] }> {
    const filter: object[] = [{ term: { [q.direction === 'OUTGOING' ? 'source.urn' : 'destination.urn']: q.urn } }];
    if (q.types?.length) filter.push({ terms: { relationshipType: q.types } });
    const from = Math.min(q.start, RESULT_WINDOW);
    const { body } = await this.conn.client.search({
      index: this.index,
      body: {
        query: { bool: { filter } },
        // One hit per (source, type, destination): the one with the latest createdOn.
        collapse: { field: 'edgeKey' },
        sort: [{ relationshipType: 'asc' }, { 'source.urn': 'asc' }, { 'destination.urn': 'asc' }, { createdOn: { order: 'desc', missing: '_last' } }],
        from,
        size: Math.max(0, Math.min(q.count, RESULT_WINDOW - from)),
        track_total_hits: false,
        // Exact below the threshold (a hash set), which covers the edges of one node.
        aggs: { edges: { cardinality: { field: 'edgeKey', precision_threshold: 40_000 } } },
      },
    });
    return { total: body.aggregations.edges.value, edges: body.hits.hits.map((h: { _source: EdgeDocument }) => toEdge(h._source)) };
  }

  /** An edge document per (source, aspect, type) into one destination, so no collapsing is needed. */
  async references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }> {
    const from = Math.min(page.start, RESULT_WINDOW);
    const { body } = await this.conn.client.search({
      index: this.index,
      body: {
        query: { bool: { filter: [{ term: { 'destination.urn': urn } }] } },
        sort: [{ 'source.urn': 'asc' }, { aspect: 'asc' }, { relationshipType: 'asc' }],
        from,
        size: Math.max(0, Math.min(page.count, RESULT_WINDOW - from)),
        track_total_hits: true,
        _source: ['source.urn', 'aspect', 'relationshipType'],
      },
    });
    const references = body.hits.hits.map((h: { _source: EdgeDocument }) => ({ source: h._source.source.urn, aspect: h._source.aspect, relationshipType: h._source.relationshipType }));
    return { total: body.hits.total.value, references };
  }

  async clear(): Promise<void> {
    await this.conn.refresh([this.index]);
    await this.conn.client.deleteByQuery({ index: this.index, conflicts: 'proceed', refresh: this.conn.deleteByQueryRefresh, body: { query: { match_all: {} } } });
  }
}
