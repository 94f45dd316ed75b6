/**
 * Column-wise field values in memory (like a search engine's doc values), for facets and sorting
 * over many documents at once. A field is loaded from `search_values` the first time a query needs
 * it, then kept in step by the writer.
 */
import type { EmbeddedDb } from '../database';

class FieldValues {
  readonly dict: string[] = [];
  private readonly dictIds = new Map<string, number>();
  /** Per doc id: 0 none, n > 0 the single value n - 1; several values live in `multi`. */
  private single = new Int32Array(1024);
  private readonly multi = new Map<number, number[]>();

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
    this.multi.delete(docId);
    this.single[docId] = 0;
    if (values.length === 1) this.single[docId] = this.valueId(values[0]) + 1;
    else if (values.length > 1) this.multi.set(docId, values.map((v) => this.valueId(v)));
  }

  add(docId: number, value: string): void {
    const current = this.ids(docId);
    this.set(docId, [...current.map((id) => this.dict[id]), value]);
  }

  ids(docId: number): number[] {
    const s = docId < this.single.length ? this.single[docId] : 0;
    if (s > 0) return [s - 1];
    return this.multi.get(docId) ?? [];
  }

  /** Adds the document's value counts into `counts` (by value id), without allocating. */
  count(docId: number, counts: Int32Array): void {
    const s = docId < this.single.length ? this.single[docId] : 0;
    if (s > 0) counts[s - 1]++;
    else if (this.multi.size) for (const id of this.multi.get(docId) ?? []) counts[id]++;
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

  /** Value counts over the documents, most frequent first, then by value. */
  counts(fieldIds: readonly number[], docs: readonly number[], size: number): { value: string; count: number }[] {
    const fields = fieldIds.map((id) => this.field(id));
    const perField = fields.map((f) => new Int32Array(f.dict.length));
    fields.forEach((f, i) => {
      const counts = perField[i];
      for (const docId of docs) f.count(docId, counts);
    });
    const totals = new Map<string, number>();
    fields.forEach((f, i) => perField[i].forEach((n, id) => n && totals.set(f.dict[id], (totals.get(f.dict[id]) ?? 0) + n)));
    return [...totals]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, size);
  }

  /** The document's values of the fields. */
  values(fieldIds: readonly number[], docId: number): string[] {
    return fieldIds.flatMap((fid) => {
      const f = this.field(fid);
      return f.ids(docId).map((id) => f.dict[id]);
    });
  }
}
