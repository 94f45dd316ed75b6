/**
 * Column-wise field values in memory (like a search engine's doc values), for facets and sorting
 * over many documents at once. A field is loaded from `search_values` the first time a query needs
 * it, then kept in step by the writer.
 */
import type { EmbeddedDb } from '../database';
import { smallest } from './smallest';

/** Marks a document with several values: most documents have none or one, and only those look further. */
const MULTI = -1;

export interface ValueCount {
  readonly value: string;
  readonly count: number;
}

const byCountThenValue = (a: ValueCount, b: ValueCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

class FieldValues {
  readonly dict: string[] = [];
  private readonly dictIds = new Map<string, number>();
  /** Per doc id: 0 none, n > 0 the single value n - 1, MULTI several values (in `multi`). */
  private single = new Int32Array(1024);
  /** Value ids of documents with several, by doc id: an array, as a map lookup per document costs more than the count. */
  private multi: (readonly number[] | undefined)[] = [];

  private valueId(v: string): number {
    let id = this.dictIds.get(v);
    if (id === undefined) {
      id = this.dict.length;
      this.dict.push(v);
      this.dictIds.set(v, id);
    }
    return id;
  }

  set(docId: number, values: readonly string[]): void {
    if (docId >= this.single.length) {
      const grown = new Int32Array(Math.max(docId + 1, this.single.length * 2));
      grown.set(this.single);
      this.single = grown;
    }
    if (this.single[docId] === MULTI) this.multi[docId] = undefined;
    this.single[docId] = 0;
    if (values.length === 1) this.single[docId] = this.valueId(values[0]) + 1;
    else if (values.length > 1) {
      while (this.multi.length <= docId) this.multi.push(undefined);
      this.single[docId] = MULTI;
      this.multi[docId] = values.map((v) => this.valueId(v));
    }
  }

  add(docId: number, value: string): void {
    const current = this.ids(docId);
    this.set(docId, [...current.map((id) => this.dict[id]), value]);
  }

  ids(docId: number): readonly number[] {
    const s = docId < this.single.length ? this.single[docId] : 0;
    if (s > 0) return [s - 1];
    return s === MULTI ? (this.multi[docId] ?? []) : [];
  }

  /** Adds the documents' value counts into `counts` (by value id), without allocating. */
  countAll(docIds: readonly number[], counts: Int32Array): void {
    const { single, multi } = this;
    // Indexed loops: iterators cost twice as much over tens of thousands of documents.
    for (let i = 0; i < docIds.length; i++) {
      const docId = docIds[i];
      const s = docId < single.length ? single[docId] : 0;
      if (s > 0) counts[s - 1]++;
      else if (s === MULTI) {
        const ids = multi[docId];
        if (ids) for (let k = 0; k < ids.length; k++) counts[ids[k]]++;
      }
    }
  }
}

export class DocValues {
  private readonly fields = new Map<number, FieldValues>();
  private readonly load;

  constructor(db: EmbeddedDb) {
    this.load = db.prepare('SELECT doc_id, value FROM search_values WHERE field_id = ?').raw();
  }

  private field(fieldId: number): FieldValues {
    let f = this.fields.get(fieldId);
    if (!f) {
      f = new FieldValues();
      for (const [docId, value] of this.load.iterate(fieldId) as Iterable<[number, string]>) f.add(docId, value);
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
  counts(docsByField: ReadonlyMap<number, readonly number[]>, size: number): ValueCount[] {
    if (docsByField.size === 1) {
      const [[fieldId, docs]] = docsByField;
      return this.fieldCounts(this.field(fieldId), docs, size);
    }
    const totals = new Map<string, number>();
    for (const [fieldId, docs] of docsByField) {
      const f = this.field(fieldId);
      const counts = new Int32Array(f.dict.length);
      f.countAll(docs, counts);
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
  private fieldCounts(f: FieldValues, docs: readonly number[], size: number): ValueCount[] {
    const counts = new Int32Array(f.dict.length);
    f.countAll(docs, counts);
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
