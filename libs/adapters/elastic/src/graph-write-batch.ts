/**
 * Edge replacements and node removals, sent on flush. Replacing the edges of (source, aspect)
 * reads the ids it declared before by id (real time, unlike a search), so the edges it no
 * longer declares are deleted even when they were written a moment ago.
 */
import type { Edge, GraphWriteBatch } from '@cairn/ports';
import { sendBulk, type BulkOperation } from './bulk';
import { declaredEdgesDocumentId, edgeDocumentId } from './document-ids';
import { toEdgeDocument, type DeclaredEdges } from './edge-documents';
import type { ElasticConnection } from './elastic-connection';

interface Replacement {
  readonly source: string;
  readonly aspect: string;
  readonly edges: readonly Edge[];
}

type GraphWrite = ({ kind: 'replace' } & Replacement) | { kind: 'remove'; urn: string };

export class GraphBulkBatch implements GraphWriteBatch {
  private readonly writes: GraphWrite[] = [];

  constructor(
    private readonly conn: ElasticConnection,
    private readonly index: string,
  ) {}

  async replaceEdges(source: string, aspect: string, edges: readonly Edge[]): Promise<void> {
    this.writes.push({ kind: 'replace', source, aspect, edges: [...edges] });
  }

  async removeNode(urn: string): Promise<void> {
    this.writes.push({ kind: 'remove', urn });
  }

  /** Replacements between two removals go out together, the last one per (source, aspect) winning. */
  async flush(): Promise<void> {
    let pending = new Map<string, Replacement>();
    for (const w of this.writes.splice(0)) {
      if (w.kind === 'replace') {
        pending.set(declaredEdgesDocumentId(w.source, w.aspect), w);
        continue;
      }
      await this.replace(pending);
      pending = new Map();
      await this.remove(w.urn);
    }
    await this.replace(pending);
  }

  private async replace(replacements: ReadonlyMap<string, Replacement>): Promise<void> {
    if (!replacements.size) return;
    const ids = [...replacements.keys()];
    const { body } = await this.conn.client.mget({ index: this.index, body: { ids } });
    const operations: BulkOperation[] = [];
    (body.docs as { _id: string; found: boolean; _source?: DeclaredEdges }[]).forEach((found) => {
      const { source, aspect, edges } = replacements.get(found._id)!;
      const before = found.found ? found._source!.declaredEdges.ids : [];
      const docs = new Map(edges.map((e) => [edgeDocumentId(source, aspect, e.relationshipType, e.destination), toEdgeDocument(aspect, e)]));
      for (const id of before) if (!docs.has(id)) operations.push({ action: { delete: { _index: this.index, _id: id } } });
      for (const [id, doc] of docs) operations.push({ action: { index: { _index: this.index, _id: id } }, body: { ...doc } });
      const declared: DeclaredEdges = { declaredEdges: { source, aspect, ids: [...docs.keys()] } };
      operations.push(docs.size ? { action: { index: { _index: this.index, _id: found._id } }, body: { ...declared } } : { action: { delete: { _index: this.index, _id: found._id } } });
    });
    await sendBulk(this.conn.client, operations, this.conn.writeRefresh);
  }

  private async remove(urn: string): Promise<void> {
    const should = [{ term: { 'source.urn': urn } }, { term: { 'destination.urn': urn } }, { term: { 'declaredEdges.source': urn } }];
    await this.conn.deleteByQuery([this.index], { bool: { should, minimum_should_match: 1 } });
  }
}
