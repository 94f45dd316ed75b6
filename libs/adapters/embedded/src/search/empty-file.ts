/**
 * Empties a search file by copying an empty one over it with SQLite's online backup: what a full
 * rebuild does first. Deleting the rows instead walks every page of the old index (seconds at 100k
 * entities, minutes at a million, while the indexer stands still and writes queue behind it) and
 * leaves the file its old size. The copy is a few pages, so it takes milliseconds; it keeps the
 * file's tables, autocomplete word indexes and field ids, so every connection's prepared statements
 * and readers' field registries stay valid, and readers see the file empty from their next query.
 */
import Database from 'better-sqlite3';
import type { EmbeddedDb } from '../database';
import { acTables, createAcTableNamed, createDeferredRows, createSearchTables, relayFields, type FieldRegistry } from './search-tables';

/**
 * `db`: the file's writer connection, with no transaction open; `deferRows`: the empty file defers
 * value and term rows (a rebuild's); `fields`: the connection's registry, which chooses again which
 * fields keep their values as tokens (reload it once this is done).
 */
export async function replaceWithEmpty(db: EmbeddedDb, file: string, deferRows: boolean, fields: FieldRegistry): Promise<void> {
  const empty = new Database(':memory:');
  try {
    // A backup into a file in WAL mode needs the same page size.
    empty.pragma(`page_size = ${db.pragma('page_size', { simple: true }) as number}`);
    createSearchTables(empty);
    if (deferRows) createDeferredRows(empty);
    for (const table of acTables(db)) createAcTableNamed(empty, table);
    const insert = empty.prepare('INSERT INTO search_fields (field_id, entity_type, name) VALUES (?, ?, ?)');
    for (const field of db.prepare('SELECT field_id, entity_type, name FROM search_fields').raw().all() as [number, string, string][]) insert.run(...field);
    relayFields(empty, fields);
    await empty.backup(file);
  } finally {
    empty.close();
  }
  // The old pages leave the file now rather than at the next automatic checkpoint.
  db.pragma('wal_checkpoint(PASSIVE)');
}
