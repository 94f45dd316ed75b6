/**
 * Column-wise field values in memory (like a search engine's doc values), for facets and sorting
 * over many documents at once. A field is loaded from `search_values` the first time a query needs
 * it (from the stored documents, for a field that keeps its values as tokens), then kept in step by
 * the writer.
 */
import type { EmbeddedDb } from '../database';
import type { FieldRegistry } from './search-tables';
import { smallest } from './smallest';
import { StoredFieldValues } from './value-token-reads';

/** Marks a document with several values: most documents have none or one, and only those look further. */
const MULTI = -1;

export interface ValueCount {
  readonly value: string;
  readonly count: number;
}

/**
 * The documents to count a field's values over: these, or all that have the field but these (a
 * broad query's few non-matches cost less to count than its many matches).
 */
export type CountedDocs = ArrayLike<number> | { readonly allBut: ArrayLike<number> };

const byCountThenValue = (a: ValueCount, b: ValueCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

class FieldValues {
  readonly dict: string[] = [];
  private readonly dictIds = new Map<string, number>();
  /** Per doc id: 0 none, n > 0 the single value n - 1, MULTI several values (in the pool). */
  private single = new Int32Array(1024);
  /**
   * Value ids of documents with several, contiguous in one pool (where they start, how many), not
   * an array per document: counting tens of thousands of small arrays scattered over the heap
   * waits on memory more than it counts. Replaced values stay in the pool until it is compacted.
   */
  private multiAt = new Int32Array(0);
  private multiCount = new Int32Array(0);
  private pool = new Int32Array(1024);
  private poolEnd = 0;
  private poolLive = 0;
  /** Per value id, how many documents hold it: the counts over every document, kept as values change. */
  private totals = new Int32Array(64);

  private valueId(v: string): number {
    let id = this.dictIds.get(v);
    if (id === undefined) {
      id = this.dict.length;
      this.dict.push(v);
      this.dictIds.set(v, id);
      if (id >= this.totals.length) this.totals = grown(this.totals, id);
    }
    return id;
  }

  set(docId: number, values: readonly string[]): void {
    if (docId >= this.single.length) this.single = grown(this.single, docId);
    this.count(docId, this.totals, -1);
    if (this.single[docId] === MULTI) this.poolLive -= this.multiCount[docId];
    this.single[docId] = 0;
    if (values.length === 1) this.single[docId] = this.valueId(values[0]) + 1;
    else if (values.length > 1) this.setMulti(docId, values.map((v) => this.valueId(v)));
    this.count(docId, this.totals, 1);
  }

  private count(docId: number, counts: Int32Array, step: 1 | -1): void {
    const s = this.single[docId];
    if (s > 0) counts[s - 1] += step;
    else if (s === MULTI) for (let k = this.multiAt[docId], end = k + this.multiCount[docId]; k < end; k++) counts[this.pool[k]] += step;
  }

  private setMulti(docId: number, ids: readonly number[]): void {
    if (docId >= this.multiAt.length) {
      this.multiAt = grown(this.multiAt, docId);
      this.multiCount = grown(this.multiCount, docId);
    }
    if (this.poolEnd + ids.length > this.pool.length) this.compact(ids.length);
    this.single[docId] = MULTI;
    this.multiAt[docId] = this.poolEnd;
    this.multiCount[docId] = ids.length;
    this.pool.set(ids, this.poolEnd);
    this.poolEnd += ids.length;
    this.poolLive += ids.length;
  }

  /** Drops replaced values from the pool (in doc id order) and leaves room for `more`. */
  private compact(more: number): void {
    const pool = new Int32Array(Math.max(1024, (this.poolLive + more) * 2));
    let end = 0;
    for (let docId = 0; docId < this.single.length; docId++) {
      if (this.single[docId] !== MULTI) continue;
      const at = this.multiAt[docId];
      const count = this.multiCount[docId];
      pool.set(this.pool.subarray(at, at + count), end);
      this.multiAt[docId] = end;
      end += count;
    }
    this.pool = pool;
    this.poolEnd = end;
  }

  ids(docId: number): readonly number[] {
    const s = docId < this.single.length ? this.single[docId] : 0;
    if (s > 0) return [s - 1];
    if (s !== MULTI) return [];
    const at = this.multiAt[docId];
    return Array.from(this.pool.subarray(at, at + this.multiCount[docId]));
  }

  /** The documents' value counts (by value id), without allocating more than the result. */
  countsOf(docs: CountedDocs): Int32Array {
    const counts = new Int32Array(this.dict.length);
    if ('allBut' in docs) {
      counts.set(this.totals.subarray(0, counts.length));
      this.countAll(docs.allBut, counts, -1);
    } else this.countAll(docs, counts, 1);
    return counts;
  }

  private countAll(docIds: ArrayLike<number>, counts: Int32Array, step: 1 | -1): void {
    const { single, multiAt, multiCount, pool } = this;
    for (let i = 0; i < docIds.length; i++) {
      const docId = docIds[i];
      const s = docId < single.length ? single[docId] : 0;
      if (s > 0) counts[s - 1] += step;
      else if (s === MULTI) for (let k = multiAt[docId], end = k + multiCount[docId]; k < end; k++) counts[pool[k]] += step;
    }
  }
}

/** A copy with room for index `needed` at least, doubling. */
function grown(array: Int32Array, needed: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(needed + 1, array.length * 2));
  out.set(array);
  return out;
}

export class DocValues {
  private readonly fields = new Map<number, FieldValues>();
  private readonly load;
  private readonly stored;

  constructor(
    db: EmbeddedDb,
    private readonly registry: FieldRegistry,
  ) {
    this.load = db.prepare('SELECT doc_id, value FROM search_values WHERE field_id = ?').raw();
    this.stored = new StoredFieldValues(db);
  }

  private field(fieldId: number): FieldValues {
    let f = this.fields.get(fieldId);
    if (!f) {
      f = new FieldValues();
      const info = this.registry.byFieldId(fieldId);
      if (info?.valueTokens) {
        for (const [docId, values] of this.stored.of(info)) f.set(docId, values);
      } else {
        // Rows come in value order: a document's values are gathered before it is set, in doc id order.
        const byDoc = new Map<number, string[]>();
        for (const [docId, value] of this.load.iterate(fieldId) as Iterable<[number, string]>) {
          const values = byDoc.get(docId);
          if (values) values.push(value);
          else byDoc.set(docId, [value]);
        }
        for (const docId of [...byDoc.keys()].sort((a, b) => a - b)) f.set(docId, byDoc.get(docId) ?? []);
      }
      this.fields.set(fieldId, f);
    }
    return f;
  }

  /** Keeps a loaded field in step with a write; unloaded fields load the new state when needed. */
  update(fieldId: number, docId: number, values: readonly string[]): void {
    this.fields.get(fieldId)?.set(docId, values);
  }

  deleteDoc(docId: number): void {
    for (const f of this.fields.values()) f.set(docId, []);
  }

  clear(): void {
    this.fields.clear();
  }

  /** The `size` most frequent values over each field's documents (summed across the fields), then by value. */
  counts(docsByField: ReadonlyMap<number, CountedDocs>, size: number): ValueCount[] {
    if (docsByField.size === 1) {
      const [[fieldId, docs]] = docsByField;
      return this.fieldCounts(this.field(fieldId), docs, size);
    }
    const totals = new Map<string, number>();
    for (const [fieldId, docs] of docsByField) {
      const f = this.field(fieldId);
      const counts = f.countsOf(docs);
      for (let id = 0; id < counts.length; id++) {
        const n = counts[id];
        if (n > 0) totals.set(f.dict[id], (totals.get(f.dict[id]) ?? 0) + n);
      }
    }
    const values: ValueCount[] = [];
    for (const [value, count] of totals) values.push({ value, count });
    return smallest(values, size, byCountThenValue);
  }

  /** One field's counts, ranked by value id: no map by value, and objects only for the top values. */
  private fieldCounts(f: FieldValues, docs: CountedDocs, size: number): ValueCount[] {
    const counts = f.countsOf(docs);
    const counted: number[] = [];
    for (let id = 0; id < counts.length; id++) if (counts[id] > 0) counted.push(id);
    const { dict } = f;
    const top = smallest(counted, size, (a, b) => counts[b] - counts[a] || (dict[a] < dict[b] ? -1 : dict[a] > dict[b] ? 1 : 0));
    return top.map((id) => ({ value: dict[id], count: counts[id] }));
  }

  /** The document's values of the fields. */
  values(fieldIds: readonly number[], docId: number): string[] {
    return fieldIds.flatMap((fid) => {
      const f = this.field(fid);
      return f.ids(docId).map((id) => f.dict[id]);
    });
  }
}
