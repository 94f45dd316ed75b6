/**
 * Word-index rows of recent FTS expressions, kept across writes. A common word is in tens of
 * thousands of rows, and handing each row from SQLite to JavaScript (about 130 ns) costs more than
 * the rest of a query. A kept expression is brought up to date with the documents changed since it
 * was read: their words are matched in a small in-memory index with the same analysis, so a patched
 * answer is the one the word index would give.
 */
import Database from 'better-sqlite3';
import type { EmbeddedDb } from '../database';
import type { DocCatalog } from './doc-catalog';
import { FIELD_SLOTS, WORD_INDEX_OPTIONS, wordRows, type FieldRegistry } from './search-tables';

/** Rows kept in all (8 bytes each), rows of one expression, and expressions. */
const MAX_ROWS = 2_000_000;
const MAX_EXPRESSION_ROWS = 500_000;
const MAX_EXPRESSIONS = 256;
/** Changed documents the scratch index holds; beyond, it starts again and older expressions are read afresh. */
const MAX_CHANGED_DOCS = 1000;
/**
 * Deriving a changed document's words costs about what reading this many rows does (a dataset's
 * words about 1 ms, a row about 150 ns): a kept expression is patched only when that is cheaper
 * than reading it afresh, so a busy writer never makes a query slower than it was without the cache.
 */
const ROWS_PER_CHANGED_DOC = 5000;

export interface PostingCacheOptions {
  /** The patching threshold above (tests set 0, to patch every time). */
  readonly rowsPerChangedDoc?: number;
}

interface Kept {
  rows: Float64Array;
  /** The catalog generation the rows are current at. */
  generation: number;
}

export class PostingCache {
  private readonly kept = new Map<string, Kept>();
  private keptRows = 0;
  private readonly changed: ChangedWords;
  private readonly rowsPerChangedDoc: number;

  constructor(
    db: EmbeddedDb,
    fields: FieldRegistry,
    private readonly catalog: DocCatalog,
    options: PostingCacheOptions = {},
  ) {
    this.changed = new ChangedWords(db, fields, catalog);
    this.rowsPerChangedDoc = options.rowsPerChangedDoc ?? ROWS_PER_CHANGED_DOC;
  }

  /**
   * Rowids matching an expression, ascending, of the fields `inFields` accepts. `read` reads them
   * from a word index, which the cache does when it has nothing to patch; `key` names the expression
   * and the fields.
   */
  rows(key: string, expression: string, inFields: (fieldId: number) => boolean, read: () => number[]): Float64Array {
    const kept = this.kept.get(key);
    if (kept) {
      this.forget(key);
      if (kept.generation === this.catalog.generation || this.patch(kept, expression, inFields)) {
        this.keep(key, kept);
        return kept.rows;
      }
    }
    const generation = this.catalog.generation;
    const rows = Float64Array.from(read());
    if (rows.length <= MAX_EXPRESSION_ROWS) this.keep(key, { rows, generation });
    return rows;
  }

  /** Replaces the rows of documents changed since the kept generation; false when that cannot be done. */
  private patch(kept: Kept, expression: string, inFields: (fieldId: number) => boolean): boolean {
    if (this.changed.unsynced() * this.rowsPerChangedDoc > kept.rows.length) return false;
    const fresh = this.changed.matchesSince(kept.generation, expression);
    if (!fresh) return false;
    kept.rows = replaceDocs(kept.rows, fresh.docs, fresh.rows.filter((r) => inFields(r % FIELD_SLOTS)));
    kept.generation = this.catalog.generation;
    return true;
  }

  private keep(key: string, kept: Kept): void {
    this.kept.set(key, kept);
    this.keptRows += kept.rows.length;
    for (const oldest of this.kept.keys()) {
      if (this.keptRows <= MAX_ROWS && this.kept.size <= MAX_EXPRESSIONS) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const kept = this.kept.get(key);
    if (!kept) return;
    this.kept.delete(key);
    this.keptRows -= kept.rows.length;
  }
}

/**
 * Rows without those of the documents `docs` (ascending), merged with `fresh` (ascending rows of
 * those documents). Rowids are doc id major, so one pass over each suffices.
 */
export function replaceDocs(rows: Float64Array, docs: readonly number[], fresh: readonly number[]): Float64Array {
  const out = new Float64Array(rows.length + fresh.length);
  let n = 0;
  let d = 0;
  let f = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    while (f < fresh.length && fresh[f] < row) out[n++] = fresh[f++];
    const doc = Math.floor(row / FIELD_SLOTS);
    while (d < docs.length && docs[d] < doc) d++;
    if (d < docs.length && docs[d] === doc) continue;
    out[n++] = row;
  }
  while (f < fresh.length) out[n++] = fresh[f++];
  return out.slice(0, n);
}

/**
 * The current words of documents changed since generation `from`, in an in-memory FTS5 index with
 * the word index's analysis, derived from the stored documents as the writer derives them.
 */
class ChangedWords {
  private readonly scratch = new Database(':memory:');
  private readonly insert;
  private readonly remove;
  private readonly match;
  private readonly docRow;
  private readonly rowsOfDoc = new Map<number, number[]>();
  private from: number;
  private syncedAt: number;

  constructor(
    db: EmbeddedDb,
    private readonly fields: FieldRegistry,
    private readonly catalog: DocCatalog,
  ) {
    this.scratch.exec(`CREATE VIRTUAL TABLE changed_words USING fts5(words, ${WORD_INDEX_OPTIONS})`);
    this.insert = this.scratch.prepare('INSERT INTO changed_words (rowid, words) VALUES (?, ?)');
    this.remove = this.scratch.prepare('DELETE FROM changed_words WHERE rowid = ?');
    this.match = this.scratch.prepare('SELECT rowid FROM changed_words WHERE changed_words MATCH ? ORDER BY rowid').pluck();
    this.docRow = db.prepare('SELECT entity_type, doc FROM search_docs WHERE doc_id = ?').raw();
    this.from = this.syncedAt = catalog.generation;
  }

  /**
   * The documents changed since a generation (ascending) and their rows matching the expression;
   * undefined when the scratch index does not reach back that far.
   */
  matchesSince(generation: number, expression: string): { docs: number[]; rows: number[] } | undefined {
    if (!this.sync() || generation < this.from) return undefined;
    const changed = this.catalog.changedSince(generation);
    if (!changed) return undefined;
    const docs = new Set(changed);
    const rows = (this.match.all(expression) as number[]).filter((r) => docs.has(Math.floor(r / FIELD_SLOTS)));
    return { docs: [...docs].sort((a, b) => a - b), rows };
  }

  /** Documents changed since the index was last brought up to date (each costs a derivation). */
  unsynced(): number {
    const changed = this.catalog.changedSince(this.syncedAt);
    return changed ? new Set(changed).size : MAX_CHANGED_DOCS;
  }

  /** Brings the index up to the catalog's generation; false when it had to start again. */
  private sync(): boolean {
    const generation = this.catalog.generation;
    if (generation === this.syncedAt) return true;
    const changed = this.catalog.changedSince(this.syncedAt);
    const docs = new Set(changed);
    if (!changed || new Set([...this.rowsOfDoc.keys(), ...docs]).size > MAX_CHANGED_DOCS) {
      this.scratch.exec("INSERT INTO changed_words (changed_words) VALUES ('delete-all')");
      this.rowsOfDoc.clear();
      this.from = this.syncedAt = generation;
      return false;
    }
    for (const docId of docs) this.reindex(docId);
    this.syncedAt = generation;
    return true;
  }

  private reindex(docId: number): void {
    for (const rowid of this.rowsOfDoc.get(docId) ?? []) this.remove.run(rowid);
    const row = this.docRow.get(docId) as [string, string] | undefined;
    // A field this thread has not learned yet is in a commit still to arrive, which changes the document again.
    const rows = row ? wordRows(docId, JSON.parse(row[1]) as Record<string, unknown>, (name) => this.fields.known(row[0], name)) : [];
    for (const { rowid, text } of rows) this.insert.run(rowid, text);
    this.rowsOfDoc.set(docId, rows.map((r) => r.rowid));
  }
}
