/**
 * Writes of the embedded search engine: the JSON document and, for each field whose value changed,
 * its values, terms and words. Unchanged fields (the key fields sent with every aspect) cost nothing.
 * A field's old rows are found from the stored document and deleted by primary key, so the value
 * and term tables need no second index by document (each would be one more B-tree to write).
 * A transaction's value and term row changes are reduced to their net effect and written in key
 * order when it commits: consecutive rows then land on the same B-tree leaves, which at 100k entities
 * are mostly outside the page cache. During a full rebuild they are deferred instead (`DeferredRows`)
 * and written once, in key order, when it ends. A transaction's word rows are written when it
 * commits too, in rowid order (`WordChanges`), as are the value and term tokens of fields that keep
 * them as tokens (`value-tokens.ts`). Readers' in-memory state follows once the transaction has
 * committed.
 */
import type { Statement } from 'better-sqlite3';
import type { SearchFields } from '@cairn/ports';
import type { EmbeddedDb } from '../database';
import { analyseField, fieldRows, numericValue, writtenTerms, type FieldRows } from './analysis';
import type { MemoryUpdate, ReaderState } from './reader-state';
import { DeferredRows } from './deferred-rows';
import { RowChanges } from './row-changes';
import { WordChanges } from './word-changes';
import { termTokenText, valueTokenText } from './value-tokens';
import { acTable, acTables, createAcTable, createDeferredRows, DEFERRED_ROWS, defersRows, FIELD_SLOTS, relayFields, wordRows, type FieldInfo, type FieldRegistry } from './search-tables';

interface DocRow {
  doc_id: number;
  doc: string;
}

/**
 * An upsert may carry the rows of the fields it sets (`rowsOfFields`), worked out by the thread that
 * sends it; the writer works out those it lacks.
 */
export type DocumentWrite =
  | { readonly kind: 'upsert'; readonly entityType: string; readonly urn: string; readonly fields: SearchFields; readonly rows?: Readonly<Record<string, FieldRows>> }
  | { readonly kind: 'delete'; readonly entityType: string; readonly urn: string };

export class DocumentWriter {
  private readonly stmts;
  private readonly upsertTx;
  private readonly deleteTx;
  private readonly batchTx;
  private valueChanges = new RowChanges();
  /** By entity type: statements of its autocomplete word index, created with its first words. */
  private readonly acStatements = new Map<string, { insert: Statement; remove: Statement }>();
  private termChanges = new RowChanges();
  /** The open transaction's rows of the word index, and of each entity type's autocomplete word index. */
  private wordChanges = new WordChanges();
  private acWordChanges = new Map<string, WordChanges>();
  /** The open transaction's rows of the value token index. */
  private tokenChanges = new WordChanges();
  /** What the open transaction of `openPart` has changed so far, for readers once it commits. */
  private open: (MemoryUpdate | undefined)[] | undefined;
  /** Where value and term rows go during a rebuild (the file says when: the table exists only then). */
  private deferred: DeferredRows | undefined;

  constructor(
    private readonly db: EmbeddedDb,
    private readonly fieldRegistry: FieldRegistry,
    private readonly readers: ReaderState,
  ) {
    this.stmts = {
      get: db.prepare('SELECT doc_id, doc FROM search_docs WHERE entity_type = ? AND urn = ?'),
      insertDoc: db.prepare('INSERT INTO search_docs (entity_type, urn, removed, doc) VALUES (?, ?, ?, ?)'),
      // `removed` is set only when it changes: setting it at all rewrites its two indexes' entries.
      updateDoc: db.prepare('UPDATE search_docs SET doc = ? WHERE doc_id = ?'),
      updateDocRemoved: db.prepare('UPDATE search_docs SET removed = ?, doc = ? WHERE doc_id = ?'),
      deleteDoc: db.prepare('DELETE FROM search_docs WHERE doc_id = ?'),
      deleteValue: db.prepare('DELETE FROM search_values WHERE field_id = ? AND value = ? AND doc_id = ?'),
      deleteTerm: db.prepare('DELETE FROM search_terms WHERE field_id = ? AND term = ? AND doc_id = ?'),
      deleteWords: db.prepare('DELETE FROM search_fts WHERE rowid = ?'),
      insertValue: db.prepare('INSERT OR IGNORE INTO search_values (field_id, value, doc_id, num) VALUES (?, ?, ?, ?)'),
      insertTerm: db.prepare('INSERT OR IGNORE INTO search_terms (field_id, term, doc_id) VALUES (?, ?, ?)'),
      insertWords: db.prepare('INSERT INTO search_fts (rowid, words) VALUES (?, ?)'),
      deleteTokens: db.prepare('DELETE FROM search_value_fts WHERE rowid = ?'),
      insertTokens: db.prepare('INSERT INTO search_value_fts (rowid, tokens) VALUES (?, ?)'),
    };
    this.upsertTx = db.transaction((entityType: string, urn: string, fields: SearchFields) => this.withRowChanges(() => this.upsertSync(entityType, urn, fields)));
    this.deleteTx = db.transaction((entityType: string, urn: string) => this.withRowChanges(() => this.deleteSync(entityType, urn)));
    this.batchTx = db.transaction((writes: readonly DocumentWrite[]) => this.withRowChanges(() => writes.map((w) => this.writeSync(w))));
    this.deferred = defersRows(db) ? new DeferredRows(db, false) : undefined;
  }

  /** The file was replaced under this connection (emptied for a rebuild): it may defer rows now. */
  reopened(): void {
    this.fieldRegistry.reload();
    this.deferred = defersRows(this.db) ? new DeferredRows(this.db, true) : undefined;
  }

  /** Runs `work` (inside a transaction), then writes the value and term rows it changed. */
  private withRowChanges<T>(work: () => T): T {
    this.startChanges();
    const result = work();
    this.writeRowChanges();
    return result;
  }

  private startChanges(): void {
    this.valueChanges = new RowChanges();
    this.termChanges = new RowChanges();
    this.wordChanges = new WordChanges();
    this.acWordChanges = new Map();
    this.tokenChanges = new WordChanges();
  }

  /** Writes the word and token rows the transaction changed, and its value and term rows unless they are deferred. */
  private writeRowChanges(): void {
    const { deleteWords, insertWords, deleteTokens, insertTokens } = this.stmts;
    this.wordChanges.write(
      (rowid) => deleteWords.run(rowid),
      (rowid, words) => insertWords.run(rowid, words),
    );
    this.tokenChanges.write(
      (rowid) => deleteTokens.run(rowid),
      (rowid, tokens) => insertTokens.run(rowid, tokens),
    );
    for (const [entityType, changes] of this.acWordChanges) {
      const { remove, insert } = this.acWords(entityType);
      changes.write(
        (rowid) => remove.run(rowid),
        (rowid, words) => insert.run(rowid, words),
      );
    }
    if (this.deferred) return;
    const { insertValue, deleteValue, insertTerm, deleteTerm } = this.stmts;
    this.valueChanges.forEachInKeyOrder((fieldId, text, docId, present) => {
      if (present) insertValue.run(fieldId, text, docId, numericValue(text));
      else deleteValue.run(fieldId, text, docId);
    });
    this.termChanges.forEachInKeyOrder((fieldId, text, docId, present) => {
      if (present) insertTerm.run(fieldId, text, docId);
      else deleteTerm.run(fieldId, text, docId);
    });
  }

  /** A field's value and term rows added (`present`) or removed: deferred during a rebuild, else kept for the commit. */
  private rowChanges(fieldId: number, docId: number, values: readonly string[], terms: readonly string[], present: boolean): void {
    if (this.deferred) return this.deferred.change(fieldId, docId, values, terms, present);
    for (const text of values) this.valueChanges.set(fieldId, text, docId, present);
    for (const text of terms) this.termChanges.set(fieldId, text, docId, present);
  }

  /**
   * Writes the net effect of the deferred rows into the value and term tables in key order, in one
   * transaction, and stops deferring; answers whether any were deferred.
   */
  mergeDeferredRows(): boolean {
    const deferred = this.deferred;
    if (!deferred) return false;
    deferred.merge(([isTerm, fieldId, text, docId]) => (isTerm ? this.stmts.deleteTerm : this.stmts.deleteValue).run(fieldId, text, docId));
    this.deferred = undefined;
    this.readers.rowsMerged();
    return true;
  }

  /** Several writes in one transaction: the way to keep up with a busy change log. */
  applyAll(writes: readonly DocumentWrite[]): void {
    this.committed(this.rolledBackOnError(() => this.batchTx(writes)));
  }

  /**
   * A transaction applied in parts as they arrive (`openPart` for each, then `commitOpen`), so a
   * large batch's writing overlaps the caller's preparing of its next part; its value and term
   * rows are still written once, in key order, when it commits. A part that fails rolls the whole
   * transaction back.
   */
  openPart(writes: readonly DocumentWrite[]): void {
    if (!this.open) {
      this.db.exec('BEGIN');
      this.startChanges();
      this.open = [];
    }
    try {
      for (const w of writes) this.open.push(this.writeSync(w));
    } catch (err) {
      this.rollbackOpen();
      throw err;
    }
  }

  /** Commits the parts applied since the first `openPart`, `writes` being its last part. */
  commitOpen(writes: readonly DocumentWrite[]): void {
    this.openPart(writes);
    try {
      this.writeRowChanges();
      this.db.exec('COMMIT');
    } catch (err) {
      this.rollbackOpen();
      throw err;
    }
    const updates = this.open!;
    this.open = undefined;
    this.committed(updates);
  }

  /** Gives up the parts applied so far (what a rollback removed, the registry forgets too). */
  rollbackOpen(): void {
    if (!this.open) return;
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.open = undefined;
    this.deferred?.rolledBack();
    this.acStatements.clear();
    this.fieldRegistry.forgetAdded();
  }

  upsert(entityType: string, urn: string, fields: SearchFields): void {
    this.committed([this.rolledBackOnError(() => this.upsertTx(entityType, urn, fields))]);
  }

  delete(entityType: string, urn: string): void {
    this.committed([this.rolledBackOnError(() => this.deleteTx(entityType, urn))]);
  }

  /**
   * A transaction that failed may have allocated fields and created autocomplete tables that its
   * rollback removed again: the registry forgets those fields (their ids go to the next new ones).
   */
  private rolledBackOnError<T>(transaction: () => T): T {
    try {
      return transaction();
    } catch (err) {
      this.deferred?.rolledBack();
      this.acStatements.clear();
      this.fieldRegistry.forgetAdded();
      throw err;
    }
  }

  private committed(updates: readonly (MemoryUpdate | undefined)[]): void {
    this.readers.committed(
      this.fieldRegistry.takeAdded(),
      updates.filter((u): u is MemoryUpdate => u !== undefined),
    );
  }

  private writeSync(w: DocumentWrite): MemoryUpdate | undefined {
    return w.kind === 'upsert' ? this.upsertSync(w.entityType, w.urn, w.fields, w.rows) : this.deleteSync(w.entityType, w.urn);
  }

  private deleteSync(entityType: string, urn: string): MemoryUpdate | undefined {
    const row = this.stmts.get.get(entityType, urn) as DocRow | undefined;
    if (!row) return undefined;
    this.removeDoc(row, entityType);
    return { kind: 'delete', docId: row.doc_id };
  }

  private upsertSync(entityType: string, urn: string, fields: SearchFields, rows?: Readonly<Record<string, FieldRows>>): MemoryUpdate | undefined {
    const row = this.stmts.get.get(entityType, urn) as DocRow | undefined;
    const previous: SearchFields = row ? JSON.parse(row.doc) : {};
    // Every document holds its urn (each upsert sets it), named first so the copy does not begin
    // with a spread (docs/performance.md, "Objects that begin with a spread").
    const doc: SearchFields = row ? { urn, ...previous } : { urn };
    const changed = new Set<string>(row ? [] : Object.keys(doc));
    for (const [k, v] of Object.entries(fields)) {
      if (v === null || v === undefined) {
        if (k in doc) changed.add(k);
        delete doc[k];
      } else if (!(k in doc) || JSON.stringify(doc[k]) !== JSON.stringify(v)) {
        doc[k] = v;
        changed.add(k);
      }
    }
    if (row && changed.size === 0) return undefined;
    const removed = doc.removed === true;
    let docId: number;
    if (row) {
      docId = row.doc_id;
      if (removed === (previous.removed === true)) this.stmts.updateDoc.run(JSON.stringify(doc), docId);
      else this.stmts.updateDocRemoved.run(removed ? 1 : 0, JSON.stringify(doc), docId);
    } else {
      docId = Number(this.stmts.insertDoc.run(entityType, urn, removed ? 1 : 0, JSON.stringify(doc)).lastInsertRowid);
    }
    const updated: [number, string[]][] = [];
    for (const name of changed) {
      const field = this.fieldRegistry.field(entityType, name);
      if (name in previous) this.unindexField(docId, field, previous[name]);
      updated.push([field.id, this.indexField(docId, field, rows?.[name] ?? fieldRows(field.mapping, doc[name]))]);
    }
    return { kind: 'put', docId, entityType, urn, removed, fields: updated };
  }

  private unindexField(docId: number, field: FieldInfo, value: unknown): void {
    // A field with term rows deletes every term, for rows an earlier version wrote beyond today's.
    const termRows = !field.valueTokens && !field.termTokens;
    const { values, terms, words } = analyseField(field.mapping, value, termRows);
    const rowid = docId * FIELD_SLOTS + field.id;
    if (termRows) this.rowChanges(field.id, docId, values, [...terms], false);
    else if (field.valueTokens) {
      if (values.length) this.tokenChanges.remove(rowid);
    } else {
      this.rowChanges(field.id, docId, values, [], false);
      if (writtenTerms(values, terms).length) this.tokenChanges.remove(rowid);
    }
    if (words.length) {
      this.wordChanges.remove(rowid);
      if (field.mapping?.autocomplete) this.acWordChangesOf(field.entityType).remove(rowid);
    }
  }

  /** Writes one field of a document; answers its filterable values. */
  private indexField(docId: number, field: FieldInfo, rows: FieldRows): string[] {
    const { values, terms: written, words } = rows;
    const rowid = docId * FIELD_SLOTS + field.id;
    // A file of an earlier version may lay a field out otherwise than the mappings the rows were spelt by.
    if (field.valueTokens) {
      // No whole-value lookup reads such a field (`manyValues`), so it has no terms.
      if (values.length) this.tokenChanges.add(rowid, rows.valueTokens ?? valueTokenText(values));
    } else {
      if (!field.termTokens) this.rowChanges(field.id, docId, values, written, true);
      else {
        this.rowChanges(field.id, docId, values, [], true);
        if (written.length) this.tokenChanges.add(rowid, rows.termTokens ?? termTokenText(written));
      }
    }
    if (words.length) {
      this.wordChanges.add(rowid, words);
      if (field.mapping?.autocomplete) this.acWordChangesOf(field.entityType).add(rowid, words);
    }
    return values;
  }

  private acWordChangesOf(entityType: string): WordChanges {
    let changes = this.acWordChanges.get(entityType);
    if (!changes) this.acWordChanges.set(entityType, (changes = new WordChanges()));
    return changes;
  }

  private acWords(entityType: string): { insert: Statement; remove: Statement } {
    let stmts = this.acStatements.get(entityType);
    if (!stmts) {
      createAcTable(this.db, entityType);
      const table = acTable(entityType);
      stmts = { insert: this.db.prepare(`INSERT INTO ${table} (rowid, words) VALUES (?, ?)`), remove: this.db.prepare(`DELETE FROM ${table} WHERE rowid = ?`) };
      this.acStatements.set(entityType, stmts);
    }
    return stmts;
  }

  private removeDoc(row: DocRow, entityType: string): void {
    const doc = JSON.parse(row.doc) as SearchFields;
    for (const [name, value] of Object.entries(doc)) this.unindexField(row.doc_id, this.fieldRegistry.field(entityType, name), value);
    this.stmts.deleteDoc.run(row.doc_id);
  }

  /**
   * Writes the autocomplete words of every stored document (inside the caller's transaction): how
   * an index of the earlier layout, one autocomplete word index for all types, gets one per type.
   */
  indexAutocompleteWords(): void {
    const page = this.db.prepare('SELECT doc_id, entity_type, doc FROM search_docs WHERE doc_id > ? ORDER BY doc_id LIMIT 1000').raw();
    for (let after = 0; ; ) {
      const rows = page.all(after) as [number, string, string][];
      if (rows.length === 0) return;
      for (const [docId, entityType, json] of rows) {
        const autocompleteField = (name: string) => {
          const field = this.fieldRegistry.field(entityType, name);
          return field.mapping?.autocomplete ? field : undefined;
        };
        for (const { rowid, text } of wordRows(docId, JSON.parse(json) as SearchFields, autocompleteField)) this.acWords(entityType).insert.run(rowid, text);
      }
      after = rows[rows.length - 1][0];
    }
  }

  /** Removes every document; `deferRows`: for a rebuild, whose value and term rows are then deferred until `mergeDeferredRows`. */
  clear(deferRows: boolean): void {
    this.db.transaction(() => {
      this.db.exec(`
        DELETE FROM search_docs; DELETE FROM search_values; DELETE FROM search_terms; DROP TABLE IF EXISTS ${DEFERRED_ROWS};
        INSERT INTO search_fts (search_fts) VALUES ('delete-all'); INSERT INTO search_value_fts (search_value_fts) VALUES ('delete-all');`);
      for (const table of acTables(this.db)) this.db.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
      if (deferRows) createDeferredRows(this.db);
      relayFields(this.db, this.fieldRegistry);
    })();
    this.fieldRegistry.reload();
    this.deferred = deferRows ? new DeferredRows(this.db, true) : undefined;
    this.readers.cleared();
  }
}
