/**
 * A full rebuild's value and term rows, kept aside while it runs and written into their B-trees
 * once, in key order, when it ends. Written in document order, a rebuild's rows land all over both
 * B-trees: at 100k entities its 80 commits wrote 12 GB of pages for a 1 GB index.
 *
 * Each change of one field of one document is one row of DEFERRED_ROWS holding all its value and
 * term texts (JSON arrays, the values' numeric forms beside them): a dataset's field paths are one
 * row, not a hundred, and a field's values and terms one row, not two. Rows are appended in the
 * order the changes happen, so the last change of a (field, text, document) is the one with the
 * highest (rowid, position).
 */
import type { Statement } from 'better-sqlite3';
import { withLargeSort, type EmbeddedDb } from '../database';
import { numericValue } from './analysis';
import { DEFERRED_ROWS } from './search-tables';

type RowKey = readonly [isTerm: number, fieldId: number, text: string, docId: number];

export class DeferredRows {
  /** Prepared with the first change: a table left by an earlier version has other columns, and is only merged. */
  private append: Statement | undefined;
  /**
   * The rows whose last change removed them, by key, while every change since the file was emptied
   * went through this object. The merge then inserts every added row in key order and deletes these
   * after, instead of reducing all the rows to their last change first (a third of its time at
   * 100k entities). Unknown (undefined) for rows deferred by an earlier process, or after a
   * rollback: the merge then reduces.
   */
  private removed: Map<string, RowKey> | undefined;

  /** `fromEmpty`: the table was created empty for this object, which sees every change from now on. */
  constructor(
    private readonly db: EmbeddedDb,
    fromEmpty: boolean,
  ) {
    this.removed = fromEmpty ? new Map() : undefined;
  }

  /** Adds (`present`) or removes the value and term rows of one field of a document. */
  change(fieldId: number, docId: number, values: readonly string[], terms: readonly string[], present: boolean): void {
    if (values.length === 0 && terms.length === 0) return;
    const nums = present && values.length ? numericValues(values) : null;
    this.append ??= this.db.prepare(`INSERT INTO ${DEFERRED_ROWS} (field_id, doc_id, "values", nums, terms, present) VALUES (?, ?, ?, ?, ?, ?)`);
    this.append.run(fieldId, docId, values.length ? JSON.stringify(values) : null, nums, terms.length ? JSON.stringify(terms) : null, present ? 1 : 0);
    const removed = this.removed;
    if (!removed || (present && removed.size === 0)) return;
    const note = (isTerm: 0 | 1, text: string) => {
      const key = `${isTerm} ${fieldId} ${docId} ${text}`;
      if (present) removed.delete(key);
      else removed.set(key, [isTerm, fieldId, text, docId]);
    };
    for (const text of values) note(0, text);
    for (const text of terms) note(1, text);
  }

  /** A transaction that appended rows rolled back: which rows are removed is no longer known. */
  rolledBack(): void {
    this.removed = undefined;
  }

  /**
   * Writes the net effect of every deferred row into the value and term tables in key order, in one
   * transaction, and drops DEFERRED_ROWS; no other transaction may be open, since the sort's settings
   * change outside any. The tables were empty when deferring began (the file had just been emptied),
   * so every row left present is inserted, and only rows removed during the rebuild are deleted.
   */
  merge(deleteRow: (key: RowKey) => void): void {
    const columns = this.db.prepare(`SELECT name FROM pragma_table_info('${DEFERRED_ROWS}')`).pluck().all() as string[];
    const present = (isTerm: 0 | 1) => {
      const rows = expandedRows(columns, isTerm);
      return this.removed
        ? `SELECT field_id, text, doc_id, num FROM (${rows}) WHERE present = 1 ORDER BY field_id, text, doc_id`
        : `SELECT field_id, text, doc_id, num FROM (
             SELECT field_id, text, doc_id, num, present, max(seq) FROM (${rows}) GROUP BY field_id, text, doc_id)
           WHERE present = 1`;
    };
    // Helper threads sort parts of it meanwhile: the rebuild's other work waits for the merge.
    withLargeSort(this.db, () =>
      this.db.transaction(() => {
        this.db.exec(`INSERT OR IGNORE INTO search_values (field_id, value, doc_id, num) ${present(0)};
          INSERT OR IGNORE INTO search_terms (field_id, term, doc_id) SELECT field_id, text, doc_id FROM (${present(1)});`);
        for (const key of this.removed?.values() ?? []) deleteRow(key);
        this.db.exec(`DROP TABLE ${DEFERRED_ROWS}`);
      })(),
    );
  }
}

/** The numeric values of texts, as a JSON array beside them; null when none is a number. */
function numericValues(texts: readonly string[]): string | null {
  let nums: (number | null)[] | undefined;
  texts.forEach((text, i) => {
    const n = numericValue(text);
    if (n !== null) (nums ??= new Array<number | null>(texts.length).fill(null))[i] = n;
  });
  return nums ? JSON.stringify(nums) : null;
}

/**
 * The deferred value (`isTerm` 0) or term rows one (field, text, document) each, with `seq`
 * ordering their changes. Tables left by earlier versions are read as they are: one text a row
 * (`text`), or one kind of texts a row (`is_term`, `texts`).
 */
function expandedRows(columns: readonly string[], isTerm: 0 | 1): string {
  if (columns.includes('text')) return `SELECT field_id, text, doc_id, num, present, rowid AS seq FROM ${DEFERRED_ROWS} WHERE is_term = ${isTerm}`;
  const [texts, kind] = columns.includes('is_term') ? ['texts', `d.is_term = ${isTerm}`] : isTerm ? ['terms', 'd.terms IS NOT NULL'] : ['"values"', 'd."values" IS NOT NULL'];
  const num = isTerm ? 'NULL' : "CASE WHEN d.nums IS NULL THEN NULL ELSE json_extract(d.nums, '$[' || j.key || ']') END";
  return `SELECT d.field_id, j.value AS text, d.doc_id, ${num} AS num, d.present, d.rowid * 4294967296 + j.key AS seq
    FROM ${DEFERRED_ROWS} AS d, json_each(d.${texts}) AS j WHERE ${kind}`;
}
