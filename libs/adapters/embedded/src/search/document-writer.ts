/**
 * Writes of the embedded search engine: the JSON document and, for each field whose value changed,
 * its values, terms and words. Unchanged fields (the key fields sent with every aspect) cost nothing.
 * The in-memory catalog and doc values follow once the transaction has committed.
 */
import type { SearchFields } from '@cairn/ports';
import type { EmbeddedDb } from '../database';
import { indexWords, isFulltext, isUrnType, MAX_VALUE_LENGTH, numericValue, scalarValues, urnComponents } from './analysis';
import type { DocCatalog } from './doc-catalog';
import type { DocValues } from './doc-values';
import { FIELD_SLOTS, type FieldRegistry } from './search-tables';

interface DocRow {
  doc_id: number;
  doc: string;
}

export type DocumentWrite =
  | { readonly kind: 'upsert'; readonly entityType: string; readonly urn: string; readonly fields: SearchFields }
  | { readonly kind: 'delete'; readonly entityType: string; readonly urn: string };

/** What a committed write changes in memory. */
type MemoryUpdate =
  | { readonly kind: 'put'; readonly docId: number; readonly entityType: string; readonly urn: string; readonly removed: boolean; readonly fields: [number, string[]][] }
  | { readonly kind: 'delete'; readonly docId: number };

export class DocumentWriter {
  private readonly stmts;
  private readonly upsertTx;
  private readonly deleteTx;
  private readonly batchTx;

  constructor(
    private readonly db: EmbeddedDb,
    private readonly fieldRegistry: FieldRegistry,
    private readonly catalog: DocCatalog,
    private readonly docValues: DocValues,
  ) {
    this.stmts = {
      get: db.prepare('SELECT doc_id, doc FROM search_docs WHERE entity_type = ? AND urn = ?'),
      insertDoc: db.prepare('INSERT INTO search_docs (entity_type, urn, removed, doc) VALUES (?, ?, ?, ?)'),
      updateDoc: db.prepare('UPDATE search_docs SET removed = ?, doc = ? WHERE doc_id = ?'),
      deleteDoc: db.prepare('DELETE FROM search_docs WHERE doc_id = ?'),
      // The primary keys lead with field_id; without the hint the planner scans a whole field.
      deleteValues: db.prepare('DELETE FROM search_values INDEXED BY search_values_doc WHERE doc_id = ? AND field_id = ?'),
      deleteTerms: db.prepare('DELETE FROM search_terms INDEXED BY search_terms_doc WHERE doc_id = ? AND field_id = ?'),
      deleteWords: db.prepare('DELETE FROM search_fts WHERE rowid = ?'),
      deleteAcWords: db.prepare('DELETE FROM search_ac_fts WHERE rowid = ?'),
      deleteAllValues: db.prepare('DELETE FROM search_values INDEXED BY search_values_doc WHERE doc_id = ?'),
      deleteAllTerms: db.prepare('DELETE FROM search_terms INDEXED BY search_terms_doc WHERE doc_id = ?'),
      deleteAllWords: db.prepare('DELETE FROM search_fts WHERE rowid >= ? AND rowid < ?'),
      deleteAllAcWords: db.prepare('DELETE FROM search_ac_fts WHERE rowid >= ? AND rowid < ?'),
      insertValue: db.prepare('INSERT OR IGNORE INTO search_values (field_id, value, doc_id, num) VALUES (?, ?, ?, ?)'),
      insertTerm: db.prepare('INSERT OR IGNORE INTO search_terms (field_id, term, doc_id) VALUES (?, ?, ?)'),
      insertWords: db.prepare('INSERT INTO search_fts (rowid, words) VALUES (?, ?)'),
      insertAcWords: db.prepare('INSERT INTO search_ac_fts (rowid, words) VALUES (?, ?)'),
    };
    this.upsertTx = db.transaction((entityType: string, urn: string, fields: SearchFields) => this.upsertSync(entityType, urn, fields));
    this.deleteTx = db.transaction((entityType: string, urn: string) => this.deleteSync(entityType, urn));
    this.batchTx = db.transaction((writes: readonly DocumentWrite[]) =>
      writes.map((w) => (w.kind === 'upsert' ? this.upsertSync(w.entityType, w.urn, w.fields) : this.deleteSync(w.entityType, w.urn))),
    );
  }

  /** Several writes in one transaction: the way to keep up with a busy change log. */
  applyAll(writes: readonly DocumentWrite[]): void {
    for (const update of this.batchTx(writes)) this.apply(update);
  }

  upsert(entityType: string, urn: string, fields: SearchFields): void {
    this.apply(this.upsertTx(entityType, urn, fields));
  }

  delete(entityType: string, urn: string): void {
    this.apply(this.deleteTx(entityType, urn));
  }

  private apply(update: MemoryUpdate | undefined): void {
    if (!update) return;
    if (update.kind === 'delete') {
      this.catalog.delete(update.docId);
      this.docValues.deleteDoc(update.docId);
      return;
    }
    this.catalog.put(update.docId, update.entityType, update.urn, update.removed);
    for (const [fieldId, values] of update.fields) this.docValues.update(fieldId, update.docId, values);
  }

  private deleteSync(entityType: string, urn: string): MemoryUpdate | undefined {
    const row = this.stmts.get.get(entityType, urn) as DocRow | undefined;
    if (!row) return undefined;
    this.removeDoc(row.doc_id);
    return { kind: 'delete', docId: row.doc_id };
  }

  private upsertSync(entityType: string, urn: string, fields: SearchFields): MemoryUpdate | undefined {
    const row = this.stmts.get.get(entityType, urn) as DocRow | undefined;
    const doc: SearchFields = row ? JSON.parse(row.doc) : { urn };
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
      this.stmts.updateDoc.run(removed ? 1 : 0, JSON.stringify(doc), docId);
    } else {
      docId = Number(this.stmts.insertDoc.run(entityType, urn, removed ? 1 : 0, JSON.stringify(doc)).lastInsertRowid);
    }
    const updated: [number, string[]][] = [];
    for (const name of changed) updated.push(this.indexField(docId, entityType, name, doc[name], row !== undefined));
    return { kind: 'put', docId, entityType, urn, removed, fields: updated };
  }

  /** Rewrites one field of a document; answers its field id and filterable values. */
  private indexField(docId: number, entityType: string, name: string, value: unknown, existed: boolean): [number, string[]] {
    const field = this.fieldRegistry.field(entityType, name);
    const rowid = docId * FIELD_SLOTS + field.id;
    if (existed) {
      this.stmts.deleteValues.run(docId, field.id);
      this.stmts.deleteTerms.run(docId, field.id);
      this.stmts.deleteWords.run(rowid);
      if (field.mapping?.autocomplete) this.stmts.deleteAcWords.run(rowid);
    }
    const values = value === undefined ? [] : scalarValues(value);
    const filterable = values.filter((v) => v.length <= MAX_VALUE_LENGTH);
    const words: string[] = [];
    for (const v of values) {
      if (v.length <= MAX_VALUE_LENGTH) {
        this.stmts.insertValue.run(field.id, v, docId, numericValue(v));
        this.stmts.insertTerm.run(field.id, v.toLowerCase(), docId);
      }
      if (isUrnType(field.mapping?.type)) for (const c of urnComponents(v)) this.stmts.insertTerm.run(field.id, c.toLowerCase(), docId);
      if (isFulltext(field.mapping?.type)) words.push(...indexWords(v));
    }
    if (words.length) {
      this.stmts.insertWords.run(rowid, words.join(' '));
      if (field.mapping?.autocomplete) this.stmts.insertAcWords.run(rowid, words.join(' '));
    }
    return [field.id, [...new Set(filterable)]];
  }

  private removeDoc(docId: number): void {
    this.stmts.deleteAllValues.run(docId);
    this.stmts.deleteAllTerms.run(docId);
    this.stmts.deleteAllWords.run(docId * FIELD_SLOTS, (docId + 1) * FIELD_SLOTS);
    this.stmts.deleteAllAcWords.run(docId * FIELD_SLOTS, (docId + 1) * FIELD_SLOTS);
    this.stmts.deleteDoc.run(docId);
  }

  clear(): void {
    this.db.exec(`
      DELETE FROM search_docs; DELETE FROM search_values; DELETE FROM search_terms;
      INSERT INTO search_fts (search_fts) VALUES ('delete-all'); INSERT INTO search_ac_fts (search_ac_fts) VALUES ('delete-all');`);
    this.catalog.clear();
    this.docValues.clear();
  }
}
