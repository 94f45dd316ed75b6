/**
 * The graph lives in a file of its own (written by its writer thread alone, `graph-thread.ts`).
 * Catalogs of the earlier layout kept its edges in the catalog file: they are copied into the graph
 * file, then dropped there. A move stopped halfway is done again from the start.
 */
import type { EmbeddedDb } from './database';
import { SqliteGraphIndex } from './sqlite-graph-index';

const COLUMNS = 'source, via_aspect, relationship, destination, created_on, created_actor';

export function moveGraphEdges(from: EmbeddedDb, to: EmbeddedDb): void {
  if (!from.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'graph_edges'").get()) return;
  const graph = new SqliteGraphIndex(to);
  // As a rebuild writes them: in the table's key order, indexed by destination once all are in.
  graph.removeAllForRebuild();
  const insert = to.prepare(`INSERT INTO graph_edges (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`);
  to.transaction(() => {
    for (const row of from.prepare(`SELECT ${COLUMNS} FROM graph_edges`).raw().iterate() as IterableIterator<unknown[]>) insert.run(...row);
  })();
  graph.indexDestinations();
  from.exec('DROP TABLE graph_edges');
}
