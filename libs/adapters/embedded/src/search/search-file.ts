/**
 * The search tables live in a file of their own (written by the search writer thread alone).
 * Catalogs of the earlier layout kept them in the catalog file: their documents are indexed again
 * into the search file, then the old tables are dropped. A move stopped halfway is done again
 * from the start (indexing a document again changes nothing).
 */
import type { SearchFields } from '@cairn/ports';
import type { EmbeddedDb } from '../database';
import type { DocumentWrite, DocumentWriter } from './document-writer';
import { acTables } from './search-tables';

/** Tables of documents in the earlier layouts: the last one, and the single-table one before it. */
const DOCUMENT_TABLES = ['search_docs', 'search_documents'];
const PAGE = 1000;

const exists = (db: EmbeddedDb, name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;

export function moveSearchTables(from: EmbeddedDb, writer: DocumentWriter): void {
  const tables = DOCUMENT_TABLES.filter((t) => exists(from, t));
  if (tables.length === 0) return;
  for (const table of tables) {
    let page: DocumentWrite[] = [];
    for (const [entityType, urn, doc] of from.prepare(`SELECT entity_type, urn, doc FROM ${table}`).raw().iterate() as IterableIterator<[string, string, string]>) {
      page.push({ kind: 'upsert', entityType, urn, fields: JSON.parse(doc) as SearchFields });
      if (page.length === PAGE) {
        writer.applyAll(page);
        page = [];
      }
    }
    writer.applyAll(page);
  }
  const acIndexes = [...acTables(from), ...(exists(from, 'search_ac_fts') ? ['search_ac_fts'] : [])];
  from.transaction(() => {
    from.exec('DROP VIEW IF EXISTS search_lookup_terms');
    for (const t of [...tables, 'search_values', 'search_terms', 'search_fields', 'search_fts', 'search_value_fts', ...acIndexes]) from.exec(`DROP TABLE IF EXISTS ${t}`);
  })();
}
