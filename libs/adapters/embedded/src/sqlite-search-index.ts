/** SearchIndex on SQLite: JSON documents with field values, exact terms and FTS5 words beside them. */
import { badRequest } from '@cairn/core';
import {
  MAX_RESULT_WINDOW,
  type AutocompleteQuery,
  type AutocompleteResult,
  type BrowseQuery,
  type BrowseResult,
  type DocumentSelection,
  type ScrollResult,
  type SearchFields,
  type SearchIndex,
  type SearchMappings,
  type SearchQuery,
  type SearchResult,
  type SearchWriteBatch,
} from '@cairn/ports';
import { syncOf, type EmbeddedDb } from './database';
import { scalarValues } from '@cairn/search';
import { rowsOfFields } from './search/analysis';
import { AnalysisShare } from './search/analysis-share';
import { LoopBusy } from './search/loop-busy';
import { DocCatalog } from './search/doc-catalog';
import { DocValues } from './search/doc-values';
import { DocumentWriter, type DocumentWrite } from './search/document-writer';
import { LocalReaderState, type ReaderState } from './search/reader-state';
import { ReaderThreads } from './search/reader-threads';
import type { SearchReads } from './search/search-reads';
import { SearchReader } from './search/search-reader';
import { createSearchTables, FieldRegistry } from './search/search-tables';
import { moveSearchTables } from './search/search-file';
import { WriterThread, type DocumentWrites } from './search/writer-thread';

/**
 * Documents of a batch sent to the writer thread together, while the rest of the batch is projected.
 * Few: a document waits here until its part goes, and in parts of 500 a rebuild's documents lived
 * long enough for V8 to copy them into its old generation (this thread's CPU in a 100k rebuild
 * 27.7 and 28.3 s with 500, 26.7 and 26.9 s with 25).
 */
const PART_WRITES = 25;

export interface SearchIndexOptions {
  /**
   * Threads answering queries, each with its own connection (0: queries run in the caller's
   * thread). Needs a database file.
   */
  readonly readThreads?: number;
  /**
   * Writes on a thread of their own (needs a database file that holds only the search tables:
   * SQLite has one writer per file, and the thread's transactions would hold up the others').
   */
  readonly writerThread?: boolean;
  /** A catalog file of the earlier layout, whose search tables move into this index's file. */
  readonly movingFrom?: EmbeddedDb;
}

export class SqliteSearchIndex implements SearchIndex {
  /** This thread's writer: the one that writes, or the one of migrations before a writer thread starts. */
  private readonly writer: DocumentWriter;
  /** Where writes go: this thread's writer, or the writer thread. */
  private readonly writes: DocumentWrites;
  private readonly reader: SearchReads;
  private readonly threads?: ReaderThreads;
  private readonly stmts;
  /**
   * While a full rebuild runs, the documents sent to the writer thread carry their fields' rows
   * (`rowsOfFields`) in the share of them that keeps this thread and the writer about as busy
   * (`AnalysisShare`): the writer is then the rebuild's bound, where an ingest leaves it the less
   * busy of the two (this thread 0.58 of a core, the writer 0.29), so its writes carry none.
   */
  private analysis: { readonly share: AnalysisShare; readonly loop: LoopBusy } | undefined;

  /** `mappings` types the fields (from the model's annotations); unmapped fields are indexed as text. */
  constructor(
    db: EmbeddedDb,
    private readonly mappings: SearchMappings = new Map(),
    options: SearchIndexOptions = {},
  ) {
    createSearchTables(db);
    const fields = new FieldRegistry(db, mappings);
    const readThreads = db.memory ? 0 : (options.readThreads ?? 0);
    let readers: ReaderState;
    if (readThreads > 0) {
      this.threads = new ReaderThreads(readThreads, db.name, mappings);
      this.reader = this.threads;
      readers = this.threads;
    } else {
      const catalog = new DocCatalog(db);
      const docValues = new DocValues(db, fields);
      this.reader = new SearchReader(db, fields, catalog, docValues);
      readers = new LocalReaderState(fields, catalog, docValues);
    }
    this.writer = new DocumentWriter(db, fields, readers);
    this.migrateAutocompleteIndex(db);
    this.migrateLegacyDocuments(db);
    if (options.movingFrom) moveSearchTables(options.movingFrom, this.writer);
    // A rebuild that did not end (the process stopped) leaves its rows deferred: they are written now.
    this.writer.mergeDeferredRows();
    this.writes =
      options.writerThread && !db.memory
        ? new WriterThread(db.name, mappings, syncOf(db), readers)
        : {
            apply: async (writes) => this.writer.applyAll(writes),
            clear: async (deferRows) => this.writer.clear(deferRows),
            mergeDeferred: async () => void this.writer.mergeDeferredRows(),
            close: async () => undefined,
          };
    this.stmts = {
      get: db.prepare('SELECT doc FROM search_docs WHERE entity_type = ? AND urn = ?').pluck(),
      count: db.prepare('SELECT COUNT(*) FROM search_docs').pluck(),
      countType: db.prepare('SELECT COUNT(*) FROM search_docs WHERE entity_type = ?').pluck(),
    };
  }

  /** Documents of the earlier single-table layout are indexed once into the current one. */
  private migrateLegacyDocuments(db: EmbeddedDb): void {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_documents'").get()) return;
    db.transaction(() => {
      const rows = db.prepare('SELECT entity_type, urn, doc FROM search_documents').all() as { entity_type: string; urn: string; doc: string }[];
      for (const r of rows) this.writer.upsert(r.entity_type, r.urn, JSON.parse(r.doc) as SearchFields);
      db.exec('DROP TABLE search_documents');
    })();
  }

  /** The earlier layout's one autocomplete word index becomes one per entity type, from the stored documents. */
  private migrateAutocompleteIndex(db: EmbeddedDb): void {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_ac_fts'").get()) return;
    db.transaction(() => {
      this.writer.indexAutocompleteWords();
      db.exec('DROP TABLE search_ac_fts');
    })();
  }

  async upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void> {
    await this.writes.apply([{ kind: 'upsert', entityType, urn, fields }]);
  }

  async deleteDocument(entityType: string, urn: string): Promise<void> {
    await this.writes.apply([{ kind: 'delete', entityType, urn }]);
  }

  /**
   * A change-log batch's writes in one transaction: SQLite commits, not rows, are what cost. An
   * entity's aspects mostly arrive together, so its upserts up to its next delete merge into one
   * (later fields win, as applying them in turn would): its document is read and written once.
   */
  batch(): SearchWriteBatch {
    let writes: DocumentWrite[] = [];
    let pending = new Map<string, SearchFields>();
    // On a writer thread, every PART_WRITES documents go out as a part of the batch's transaction:
    // the thread writes them while this one projects the rest.
    let parted = this.writes.batch?.();
    const taken = () => {
      const share = parted && this.analysis?.share;
      const out = share ? writes.map((w) => (w.kind === 'upsert' && share.takesNext() ? { rows: rowsOfFields(this.mappings.get(w.entityType), w.fields), ...w } : w)) : writes;
      writes = [];
      pending = new Map();
      return out;
    };
    return {
      upsertFields: async (entityType, urn, fields) => {
        const key = `${entityType}\u0000${urn}`;
        const merged = pending.get(key);
        if (merged) Object.assign(merged, fields);
        else {
          // Copied into a literal, not spread: an entity's next aspects add their fields to it
          // (docs/performance.md, "Objects that begin with a spread"); the keys are the model's field names.
          const own = Object.assign({}, fields);
          pending.set(key, own);
          writes.push({ kind: 'upsert', entityType, urn, fields: own });
          if (parted && writes.length >= PART_WRITES) parted.send(taken());
        }
      },
      deleteDocument: async (entityType, urn) => {
        pending.delete(`${entityType}\u0000${urn}`);
        writes.push({ kind: 'delete', entityType, urn });
      },
      flush: async () => {
        const last = taken();
        const transaction = parted;
        parted = this.writes.batch?.();
        if (!transaction) return this.writes.apply(last);
        const writerBusy = await transaction.commit(last);
        if (writerBusy !== undefined && this.analysis) this.analysis.share.balance(writerBusy, this.analysis.loop.next());
      },
    };
  }

  async getDocument(entityType: string, urn: string): Promise<SearchFields | undefined> {
    const doc = this.stmts.get.get(entityType, urn) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as SearchFields);
  }

  async clear(): Promise<void> {
    this.analysis = undefined;
    await this.writes.clear(false);
  }

  /** Value and term rows are deferred until `rebuilt`: written in document order, they cost most of a rebuild's writes. */
  async clearForRebuild(): Promise<void> {
    await this.writes.clear(true);
    this.analysis = { share: new AnalysisShare(), loop: new LoopBusy() };
  }

  async rebuilt(): Promise<void> {
    this.analysis = undefined;
    await this.writes.mergeDeferred();
  }

  async count(entityType?: string): Promise<number> {
    return (entityType ? this.stmts.countType.get(entityType) : this.stmts.count.get()) as number;
  }

  /** Refuses pages past MAX_RESULT_WINDOW, as Elasticsearch does: deeper pages are scrolled to. */
  async search(query: SearchQuery, page: { from: number; size: number }): Promise<SearchResult> {
    if (page.from + page.size > MAX_RESULT_WINDOW) throw badRequest(`from + size must be at most ${MAX_RESULT_WINDOW} (got ${page.from + page.size}); page deeper with a scroll`);
    return this.reader.search(query, page.from, page.size);
  }

  async scroll(query: SearchQuery, page: { scrollId?: string; keepAlive: string; size: number }): Promise<ScrollResult> {
    return this.reader.scroll(query, page.scrollId, page.size);
  }

  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteResult> {
    return this.reader.autocomplete(query);
  }

  async autocompleteEach(queries: readonly AutocompleteQuery[]): Promise<AutocompleteResult[]> {
    return this.reader.autocompleteEach(queries);
  }

  async browse(query: BrowseQuery): Promise<BrowseResult> {
    return this.reader.browse(query);
  }

  async browsePaths(entityType: string, urn: string): Promise<string[]> {
    return scalarValues((await this.getDocument(entityType, urn))?.browsePaths);
  }

  async countByType(selection: DocumentSelection): Promise<Record<string, number>> {
    return this.reader.countByType(selection);
  }

  /** Stops the writer and reader threads (before the database closes). */
  async close(): Promise<void> {
    await this.writes.close();
    await this.threads?.close();
  }
}
