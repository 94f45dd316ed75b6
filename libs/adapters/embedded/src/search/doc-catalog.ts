/**
 * What ranking and counting need of every document, in memory: URN, entity type and the removed
 * flag, by doc id. Loaded once from `search_docs` and kept in step by the writer after each commit.
 * Types and flags are typed arrays: a broad query tests tens of thousands of documents.
 */
import type { EmbeddedDb } from '../database';
import type { CountedDocs } from './doc-values';

/** URN order is computed once no document has been added for this long. */
const URN_ORDER_QUIET_MS = 2000;
/** Changed doc ids remembered for `changedSince`; beyond this the journal starts again. */
const JOURNAL_LIMIT = 4096;

export class DocCatalog {
  private readonly urns: (string | undefined)[] = [];
  /** Per doc id: 0 no document, n > 0 the entity type `typeNames[n - 1]`. */
  private typeCodes = new Uint16Array(1024);
  private removedFlags = new Uint8Array(1024);
  private readonly typeNames: string[] = [];
  private readonly byType = new Map<string, Set<number>>();
  /** Per doc id, its place in URN order; dropped when a URN is added (removals keep the order). */
  private urnRanks: Int32Array | undefined;
  private urnAddedAt = 0;
  /** Bumped by every change, so results computed from the catalog can be reused until the next one. */
  generation = 0;
  /** The doc id of each change since generation `journalFrom`, in order. */
  private journal: number[] = [];
  private journalFrom = 0;

  constructor(db: EmbeddedDb) {
    const rows = db.prepare('SELECT doc_id, entity_type, urn, removed FROM search_docs').raw().iterate() as Iterable<[number, string, string, number]>;
    for (const [docId, entityType, urn, removed] of rows) this.put(docId, entityType, urn, removed === 1);
  }

  private typeCode(entityType: string): number {
    const known = this.typeNames.indexOf(entityType);
    if (known >= 0) return known + 1;
    this.typeNames.push(entityType);
    return this.typeNames.length;
  }

  private reserve(docId: number): void {
    if (docId < this.typeCodes.length) return;
    const size = Math.max(docId + 1, this.typeCodes.length * 2);
    const codes = new Uint16Array(size);
    codes.set(this.typeCodes);
    this.typeCodes = codes;
    const flags = new Uint8Array(size);
    flags.set(this.removedFlags);
    this.removedFlags = flags;
  }

  private changed(docId: number): void {
    this.generation++;
    this.journal.push(docId);
    if (this.journal.length > JOURNAL_LIMIT) this.restartJournal();
  }

  private restartJournal(): void {
    this.journal = [];
    this.journalFrom = this.generation;
  }

  /**
   * The doc ids changed since a generation (with repeats), or undefined when the journal does not
   * reach back that far (a cleared catalog, or too many changes since).
   */
  changedSince(generation: number): number[] | undefined {
    return generation < this.journalFrom ? undefined : this.journal.slice(generation - this.journalFrom);
  }

  put(docId: number, entityType: string, urn: string, removed: boolean): void {
    this.changed(docId);
    this.reserve(docId);
    if (this.urns[docId] !== urn) {
      this.urnRanks = undefined;
      this.urnAddedAt = Date.now();
    }
    this.urns[docId] = urn;
    this.typeCodes[docId] = this.typeCode(entityType);
    this.removedFlags[docId] = removed ? 1 : 0;
    let docs = this.byType.get(entityType);
    if (!docs) this.byType.set(entityType, (docs = new Set()));
    docs.add(docId);
  }

  delete(docId: number): void {
    this.changed(docId);
    const type = this.entityType(docId);
    if (type !== undefined) this.byType.get(type)?.delete(docId);
    this.urns[docId] = undefined;
    if (docId < this.typeCodes.length) {
      this.typeCodes[docId] = 0;
      this.removedFlags[docId] = 0;
    }
  }

  /** Results computed before are stale though no document changed (a rebuild's deferred rows were written). */
  invalidate(): void {
    this.generation++;
    this.restartJournal();
  }

  clear(): void {
    this.invalidate();
    this.urnRanks = undefined;
    this.urns.length = 0;
    this.typeCodes.fill(0);
    this.removedFlags.fill(0);
    this.byType.clear();
  }

  urn(docId: number): string {
    return this.urns[docId] ?? '';
  }

  entityType(docId: number): string | undefined {
    const code = docId < this.typeCodes.length ? this.typeCodes[docId] : 0;
    return code > 0 ? this.typeNames[code - 1] : undefined;
  }

  isRemoved(docId: number): boolean {
    return docId < this.removedFlags.length && this.removedFlags[docId] === 1;
  }

  /** A test of whether a document exists, is of one of the types and, unless asked, not removed. */
  typeTest(entityTypes: readonly string[], includeRemoved: boolean): (docId: number) => boolean {
    const wanted = new Uint8Array(this.typeNames.length + 1);
    for (const t of entityTypes) {
      const i = this.typeNames.indexOf(t);
      if (i >= 0) wanted[i + 1] = 1;
    }
    const { typeCodes, removedFlags } = this;
    return (docId) => docId < typeCodes.length && wanted[typeCodes[docId]] === 1 && (includeRemoved || removedFlags[docId] === 0);
  }

  /**
   * Places in URN order by doc id, for ordering many documents without comparing strings; undefined
   * while new documents keep arriving (ordering them afresh after each would cost more than it saves).
   */
  urnOrder(): Int32Array | undefined {
    if (this.urnRanks || Date.now() - this.urnAddedAt < URN_ORDER_QUIET_MS) return this.urnRanks;
    const ids: number[] = [];
    this.urns.forEach((urn, docId) => urn !== undefined && ids.push(docId));
    ids.sort((a, b) => (this.urns[a]! < this.urns[b]! ? -1 : this.urns[a]! > this.urns[b]! ? 1 : 0));
    const ranks = new Int32Array(this.urns.length);
    ids.forEach((docId, rank) => (ranks[docId] = rank));
    return (this.urnRanks = ranks);
  }

  /**
   * The documents by entity type, in their order: counted by type code first, so each group is
   * one typed array of its final size, and a query of one type (the usual) is its own group.
   */
  groupByType(docIds: Int32Array): Map<string, Int32Array> {
    const { typeCodes } = this;
    const sizes = new Int32Array(this.typeNames.length + 1);
    for (let i = 0; i < docIds.length; i++) {
      const docId = docIds[i];
      sizes[docId < typeCodes.length ? typeCodes[docId] : 0]++;
    }
    const out = new Map<string, Int32Array>();
    const only = docIds.length > 0 ? sizes.indexOf(docIds.length, 1) : -1;
    if (only > 0) return out.set(this.typeNames[only - 1], docIds);
    const groups = Array.from(sizes, (n) => new Int32Array(n));
    const filled = new Int32Array(sizes.length);
    for (let i = 0; i < docIds.length; i++) {
      const docId = docIds[i];
      const code = docId < typeCodes.length ? typeCodes[docId] : 0;
      if (code > 0) groups[code][filled[code]++] = docId;
    }
    for (let code = 1; code < groups.length; code++) if (sizes[code] > 0) out.set(this.typeNames[code - 1], groups[code]);
    return out;
  }

  /**
   * What to count an entity type's documents' values over: the documents, or, when they are most of
   * the type's, every other document of the type (removed ones too: they keep their values).
   */
  countedDocs(entityType: string, docs: ArrayLike<number>): CountedDocs {
    const code = this.typeNames.indexOf(entityType) + 1;
    if (code === 0 || docs.length * 2 <= (this.byType.get(entityType)?.size ?? 0)) return docs;
    const { typeCodes } = this;
    const matched = new Uint8Array(typeCodes.length);
    for (let i = 0; i < docs.length; i++) matched[docs[i]] = 1;
    const allBut: number[] = [];
    for (let docId = 0; docId < typeCodes.length; docId++) if (typeCodes[docId] === code && matched[docId] === 0) allBut.push(docId);
    return { allBut };
  }

  /** Doc ids of the entity types. */
  *docsOf(entityTypes: readonly string[]): Generator<number> {
    for (const t of entityTypes) yield* this.byType.get(t) ?? [];
  }
}
