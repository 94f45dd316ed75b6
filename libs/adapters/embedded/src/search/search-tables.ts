/**
 * Tables of the embedded search engine. A document is a JSON row; its fields are indexed three ways:
 * `search_values` (exact values, numbers: filters, facets, sort, browse), `search_terms` (lower-cased
 * whole values and URN components: `field:value` search, whole-value ranking; a term equal to a value
 * row of its field and document is not written again, so lookups read the view `search_lookup_terms`
 * of both tables, whose filters reach each table's primary key) and `search_fts`
 * (words, one row per document field; autocomplete fields also in a smaller word index of their
 * entity type, `search_ac_fts_<type>`, whose first matches for a prefix come without reading the rest).
 * A field whose many values only filters read (a dataset's column paths) keeps its exact values as
 * tokens in `search_value_fts` instead of value rows, and any other field its lookup terms there
 * instead of term rows (`value-tokens.ts`); how each field does is recorded in `search_fields`,
 * chosen when a field is allocated or its file emptied for a rebuild (fields of earlier versions'
 * files keep value and term rows).
 * Field ids are per (entity type, field), so a field id alone selects an entity type, and an FTS
 * rowid `doc_id * FIELD_SLOTS + field_id` names document and field.
 */
import type { IndexFieldMapping, SearchMappings } from '@cairn/ports';
import type { EmbeddedDb } from '../database';
import { fieldWordText, layoutOfMapping } from './analysis';

export const FIELD_SLOTS = 65536;
/** How the word indexes analyse text (readers' scratch index of changed documents too). */
export const WORD_INDEX_OPTIONS = "content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'";

/** Segments a level of the large word indexes holds before FTS5 merges them (see `createSearchTables`). */
export const WORD_INDEX_AUTOMERGE = 8;

/** Value tokens are hexadecimal (`value-tokens.ts`): ASCII, split only at spaces. */
const VALUE_TOKEN_OPTIONS = "content='', contentless_delete=1, tokenize='ascii'";

export function createSearchTables(db: EmbeddedDb): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS search_docs (
      doc_id INTEGER PRIMARY KEY, entity_type TEXT NOT NULL, urn TEXT NOT NULL, removed INTEGER NOT NULL, doc TEXT NOT NULL,
      UNIQUE (entity_type, urn));
    CREATE INDEX IF NOT EXISTS search_docs_type ON search_docs (entity_type, removed, urn);
    CREATE INDEX IF NOT EXISTS search_docs_removed ON search_docs (removed) WHERE removed = 1;
    CREATE TABLE IF NOT EXISTS search_fields (
      field_id INTEGER PRIMARY KEY, entity_type TEXT NOT NULL, name TEXT NOT NULL,
      value_tokens INTEGER NOT NULL DEFAULT 0, term_tokens INTEGER NOT NULL DEFAULT 0, UNIQUE (entity_type, name));
    CREATE TABLE IF NOT EXISTS search_values (
      field_id INTEGER NOT NULL, value TEXT NOT NULL, doc_id INTEGER NOT NULL, num REAL,
      PRIMARY KEY (field_id, value, doc_id)) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS search_values_num ON search_values (field_id, num) WHERE num IS NOT NULL;
    CREATE TABLE IF NOT EXISTS search_terms (
      field_id INTEGER NOT NULL, term TEXT NOT NULL, doc_id INTEGER NOT NULL,
      PRIMARY KEY (field_id, term, doc_id)) WITHOUT ROWID;
    -- Rows are deleted by primary key (the writer knows them from the stored document): indexes by
    -- document from earlier versions only cost writes.
    DROP INDEX IF EXISTS search_values_doc;
    DROP INDEX IF EXISTS search_terms_doc;
    -- A prefix range over the values is right too: a value starting with a lower-case text has a
    -- lower-case form starting with it.
    CREATE VIEW IF NOT EXISTS search_lookup_terms AS
      SELECT field_id, term, doc_id FROM search_terms UNION ALL SELECT field_id, value, doc_id FROM search_values;
    -- No prefix indexes: a query's last word is a prefix, but FTS5 finds a prefix's words in its
    -- sorted term list nearly as fast without them (the rows it hands over are the cost), and each
    -- prefix length would be another entry per word written, three times the inserts' time.
    -- (Files made with prefix='2 3 4' keep it until a rebuild copies an empty file over them.)
    CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(words, ${WORD_INDEX_OPTIONS});
    CREATE VIRTUAL TABLE IF NOT EXISTS search_value_fts USING fts5(tokens, ${VALUE_TOKEN_OPTIONS});
  `);
  // FTS5 merges a level's segments once it holds `automerge` of them (4 by default): at 8 a word's
  // entries are rewritten by fewer merges, and a lookup reads at most 7 segments a level instead of
  // 3. A 100k rebuild ran 5 to 12% faster; the autocomplete indexes, read by prefix at every
  // keystroke, keep the default (at 16 for them too, autocomplete's p95 rose by a fifth).
  for (const table of ['search_fts', 'search_value_fts']) db.exec(`INSERT INTO ${table}(${table}, rank) VALUES ('automerge', ${WORD_INDEX_AUTOMERGE})`);
  // Files of earlier versions: every field they hold keeps its value and term rows.
  const columns = new Set((db.prepare('PRAGMA table_info(search_fields)').all() as { name: string }[]).map((c) => c.name));
  for (const column of ['value_tokens', 'term_tokens'])
    if (!columns.has(column)) db.exec(`ALTER TABLE search_fields ADD COLUMN ${column} INTEGER NOT NULL DEFAULT 0`);
}

/**
 * During a full rebuild, the value and term rows each transaction adds and removes, in order, instead
 * of in their B-trees (`DeferredRows`). The table exists only while rows are deferred.
 */
export const DEFERRED_ROWS = 'search_deferred_rows';

export function createDeferredRows(db: EmbeddedDb): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${DEFERRED_ROWS} (
    field_id INTEGER NOT NULL, doc_id INTEGER NOT NULL, "values" TEXT, nums TEXT, terms TEXT, present INTEGER NOT NULL)`);
}

export function defersRows(db: EmbeddedDb): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(DEFERRED_ROWS) !== undefined;
}

const AC_TABLE_PREFIX = 'search_ac_fts_';

/**
 * The autocomplete word index of an entity type (created with its first autocomplete field's
 * words). Characters an identifier cannot hold are spelt out, so every type name has its own table.
 */
export function acTable(entityType: string): string {
  return AC_TABLE_PREFIX + entityType.replace(/[^A-Za-z0-9]/g, (c) => `_${c.codePointAt(0)?.toString(16)}_`);
}

export function createAcTable(db: EmbeddedDb, entityType: string): void {
  createAcTableNamed(db, acTable(entityType));
}

/** An autocomplete word index by its table's name (one `acTables` lists). */
export function createAcTableNamed(db: EmbeddedDb, table: string): void {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(words, ${WORD_INDEX_OPTIONS}, prefix='1 2 3 4')`);
}

/** Every autocomplete word index there is. */
export function acTables(db: EmbeddedDb): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' AND substr(name, 1, ?) = ?")
    .pluck()
    .all(AC_TABLE_PREFIX.length, AC_TABLE_PREFIX) as string[];
}

export interface WordRow {
  readonly rowid: number;
  readonly text: string;
}

/**
 * The word-index rows of a stored document, one per field with words, of the fields `fieldOf`
 * answers (undefined: skip the field), in rowid order. The writer and readers derive them the same way.
 */
export function wordRows(docId: number, doc: Readonly<Record<string, unknown>>, fieldOf: (name: string) => FieldInfo | undefined): WordRow[] {
  const rows: WordRow[] = [];
  for (const [name, value] of Object.entries(doc)) {
    const field = fieldOf(name);
    const text = field ? fieldWordText(field.mapping?.type, value) : '';
    if (field && text) rows.push({ rowid: docId * FIELD_SLOTS + field.id, text });
  }
  // FTS5 writes out a segment whenever a row comes with a smaller rowid than the one before (word-changes.ts).
  return rows.sort((a, b) => a.rowid - b.rowid);
}

/** Where a field keeps its exact values and lookup terms: as rows, or as tokens of `search_value_fts`. */
export interface FieldLayout {
  /** Its exact values are tokens, not rows of `search_values` (it has no lookup terms). */
  readonly valueTokens: boolean;
  /** Its lookup terms are tokens, not rows of `search_terms`. */
  readonly termTokens: boolean;
}

/**
 * Lays out every field of an emptied file by the mappings again (a file of an earlier version gets
 * the current layout this way); its connections' registries reload.
 */
export function relayFields(db: EmbeddedDb, fields: FieldRegistry): void {
  const set = db.prepare('UPDATE search_fields SET value_tokens = ?, term_tokens = ? WHERE field_id = ?');
  for (const [id, entityType, name] of db.prepare('SELECT field_id, entity_type, name FROM search_fields').raw().all() as [number, string, string][]) {
    const layout = fields.layoutOf(entityType, name);
    set.run(layout.valueTokens ? 1 : 0, layout.termTokens ? 1 : 0, id);
  }
}

export interface FieldInfo extends FieldLayout {
  readonly id: number;
  readonly entityType: string;
  readonly name: string;
  /** Undefined for a field the mappings do not know. */
  readonly mapping?: IndexFieldMapping;
}

export interface NewField extends FieldLayout {
  readonly id: number;
  readonly entityType: string;
  readonly name: string;
}

/** Field ids, allocated on first use and kept in memory. */
export class FieldRegistry {
  private readonly byKey = new Map<string, FieldInfo>();
  private added: NewField[] = [];
  private readonly byId = new Map<number, FieldInfo>();
  private readonly insert;
  private readonly all;

  constructor(
    db: EmbeddedDb,
    private readonly mappings: SearchMappings,
  ) {
    this.insert = db.prepare('INSERT INTO search_fields (entity_type, name, value_tokens, term_tokens) VALUES (?, ?, ?, ?)');
    this.all = db.prepare('SELECT field_id, entity_type, name, value_tokens, term_tokens FROM search_fields');
    this.reload();
  }

  /** Reads every field again: after a rebuild's empty file, whose fields may keep their values differently. */
  reload(): void {
    this.byKey.clear();
    this.byId.clear();
    this.added = [];
    const rows = this.all.all() as { field_id: number; entity_type: string; name: string; value_tokens: number; term_tokens: number }[];
    for (const r of rows) this.remember({ id: r.field_id, entityType: r.entity_type, name: r.name, valueTokens: r.value_tokens === 1, termTokens: r.term_tokens === 1 });
  }

  private remember(field: NewField): FieldInfo {
    const { id, entityType, name } = field;
    const mapping = this.mappings.get(entityType)?.get(name);
    const info: FieldInfo = { ...field, ...(mapping ? { mapping } : {}) };
    this.byKey.set(`${entityType}\u0000${name}`, info);
    this.byId.set(id, info);
    return info;
  }

  field(entityType: string, name: string): FieldInfo {
    const known = this.known(entityType, name);
    if (known) return known;
    const layout = this.layoutOf(entityType, name);
    const id = Number(this.insert.run(entityType, name, layout.valueTokens ? 1 : 0, layout.termTokens ? 1 : 0).lastInsertRowid);
    if (id >= FIELD_SLOTS) throw new Error(`The embedded search index holds at most ${FIELD_SLOTS - 1} fields`);
    const field: NewField = { id, entityType, name, ...layout };
    this.added.push(field);
    return this.remember(field);
  }

  /** Fields allocated since the last call, for readers in other threads to learn. */
  takeAdded(): NewField[] {
    const added = this.added;
    this.added = [];
    return added;
  }

  /** Forgets the fields allocated since the last `takeAdded`, whose rows a rollback removed. */
  forgetAdded(): void {
    for (const { id, entityType, name } of this.takeAdded()) {
      this.byId.delete(id);
      this.byKey.delete(`${entityType}\u0000${name}`);
    }
  }

  /** A field another connection allocated. */
  learn(field: NewField): void {
    if (!this.byId.has(field.id)) this.remember(field);
  }

  /** A field already allocated (by this connection or learned from another), without allocating it. */
  known(entityType: string, name: string): FieldInfo | undefined {
    return this.byKey.get(`${entityType}\u0000${name}`);
  }

  /** Ids of the named fields that exist in the given entity types. */
  ids(entityTypes: readonly string[], names: readonly string[]): number[] {
    const out: number[] = [];
    for (const t of entityTypes) {
      for (const n of names) {
        const info = this.byKey.get(`${t}\u0000${n}`);
        if (info) out.push(info.id);
      }
    }
    return out;
  }

  byFieldId(id: number): FieldInfo | undefined {
    return this.byId.get(id);
  }

  /**
   * The layout of a field allocated now, or in a file emptied for a rebuild, by the mappings: values
   * as tokens for a field they say only filters read; terms as tokens for a field no prefix lookup
   * reads (FTS5 reads a short prefix's tokens only by merging all of them, where a B-tree reads the
   * first few in order).
   */
  layoutOf(entityType: string, name: string): FieldLayout {
    return layoutOfMapping(this.mappings.get(entityType)?.get(name));
  }
}
