/**
 * What ranking and counting need of every document, in memory: URN, entity type and the removed
 * flag, by doc id. Loaded once from `search_docs` and kept in step by the writer after each commit.
 */
import type { EmbeddedDb } from '../database';

export class DocCatalog {
  private readonly urns: (string | undefined)[] = [];
  private readonly types: (string | undefined)[] = [];
  private readonly removed = new Set<number>();
  private readonly byType = new Map<string, Set<number>>();
  /** Bumped by every change, so results computed from the catalog can be reused until the next one. */
  generation = 0;

  constructor(db: EmbeddedDb) {
    const rows = db.prepare('SELECT doc_id, entity_type, urn, removed FROM search_docs').raw().iterate() as Iterable<[number, string, string, number]>;
    for (const [docId, entityType, urn, removed] of rows) this.put(docId, entityType, urn, removed === 1);
  }

  put(docId: number, entityType: string, urn: string, removed: boolean): void {
    this.generation++;
    this.urns[docId] = urn;
    this.types[docId] = entityType;
    if (removed) this.removed.add(docId);
    else this.removed.delete(docId);
    let docs = this.byType.get(entityType);
    if (!docs) this.byType.set(entityType, (docs = new Set()));
    docs.add(docId);
  }

  delete(docId: number): void {
    this.generation++;
    const type = this.types[docId];
    if (type !== undefined) this.byType.get(type)?.delete(docId);
    this.urns[docId] = undefined;
    this.types[docId] = undefined;
    this.removed.delete(docId);
  }

  clear(): void {
    this.generation++;
    this.urns.length = 0;
    this.types.length = 0;
    this.removed.clear();
    this.byType.clear();
  }

  urn(docId: number): string {
    return this.urns[docId] ?? '';
  }

  entityType(docId: number): string | undefined {
    return this.types[docId];
  }

  isRemoved(docId: number): boolean {
    return this.removed.has(docId);
  }

  /** Doc ids of the entity types. */
  *docsOf(entityTypes: readonly string[]): Generator<number> {
    for (const t of entityTypes) yield* this.byType.get(t) ?? [];
  }
}
