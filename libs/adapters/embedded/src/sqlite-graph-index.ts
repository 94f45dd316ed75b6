/** GraphIndex on SQLite: edges keyed by the aspect that declares them. */
import type { Edge, GraphIndex, GraphWriteBatch, Reference } from '@cairn/ports';
import { withLargeSort, type EmbeddedDb } from './database';

interface EdgeRow {
  source: string;
  destination: string;
  relationship: string;
  created_on: number | null;
  created_actor: string | null;
}

const toEdge = (r: EdgeRow): Edge => ({
  source: r.source,
  destination: r.destination,
  relationshipType: r.relationship,
  ...(r.created_on !== null ? { createdOn: r.created_on } : {}),
  ...(r.created_actor !== null ? { createdActor: r.created_actor } : {}),
});

export class SqliteGraphIndex implements GraphIndex {
  private readonly stmts;
  private readonly replaceTx;
  private readonly batchTx;

  constructor(private readonly db: EmbeddedDb) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS graph_edges (
        source TEXT NOT NULL, via_aspect TEXT NOT NULL, relationship TEXT NOT NULL, destination TEXT NOT NULL,
        created_on INTEGER, created_actor TEXT,
        PRIMARY KEY (source, via_aspect, relationship, destination)) WITHOUT ROWID;
    `);
    // Also after a rebuild that did not end (the process stopped before `rebuilt`).
    this.indexDestinations();
    this.stmts = {
      selectVia: db.prepare('SELECT relationship, destination, created_on, created_actor FROM graph_edges WHERE source = ? AND via_aspect = ?'),
      deleteEdge: db.prepare('DELETE FROM graph_edges WHERE source = ? AND via_aspect = ? AND relationship = ? AND destination = ?'),
      insert: db.prepare('INSERT OR REPLACE INTO graph_edges (source, via_aspect, relationship, destination, created_on, created_actor) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteNode: db.prepare('DELETE FROM graph_edges WHERE source = ? OR destination = ?'),
    };
    this.replaceTx = db.transaction((source: string, via: string, edges: readonly Edge[]) => this.replace(source, via, edges));
    this.batchTx = db.transaction((writes: readonly (() => void)[]) => {
      for (const w of writes) w();
    });
  }

  async replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void> {
    this.replaceTx(source, viaAspect, edges);
  }

  /** A change-log batch's writes in one transaction. */
  batch(): GraphWriteBatch {
    const writes: (() => void)[] = [];
    return {
      // Inside the batch's transaction: a savepoint of each replacement's own would add nothing.
      replaceEdges: async (source, viaAspect, edges) => void writes.push(() => this.replace(source, viaAspect, edges)),
      removeNode: async (urn) => void writes.push(() => this.stmts.deleteNode.run(urn, urn)),
      flush: async () => this.batchTx(writes.splice(0)),
    };
  }

  /**
   * Writes only what differs from the aspect's stored edges: a changed aspect whose edges did not
   * change (a schema whose fields' tags stayed, an ownership whose owners stayed) then dirties no
   * page of the table or of its index by destination, where each edge lands on a page of its own.
   */
  private replace(source: string, via: string, edges: readonly Edge[]): void {
    const stored = new Map<string, Omit<EdgeRow, 'source'>>();
    for (const row of this.stmts.selectVia.all(source, via) as Omit<EdgeRow, 'source'>[]) stored.set(`${row.relationship}\n${row.destination}`, row);
    for (const e of edges) {
      const key = `${e.relationshipType}\n${e.destination}`;
      const was = stored.get(key);
      stored.delete(key);
      const createdOn = e.createdOn ?? null;
      const createdActor = e.createdActor ?? null;
      if (was && was.created_on === createdOn && was.created_actor === createdActor) continue;
      this.stmts.insert.run(source, via, e.relationshipType, e.destination, createdOn, createdActor);
    }
    for (const gone of stored.values()) this.stmts.deleteEdge.run(source, via, gone.relationship, gone.destination);
  }

  async removeNode(urn: string): Promise<void> {
    this.stmts.deleteNode.run(urn, urn);
  }

  async edges(q: { urn: string; direction: 'INCOMING' | 'OUTGOING'; types?: readonly string[]; start: number; count: number }): Promise<{ total: number; edges: Edge[] }> {
    const column = q.direction === 'OUTGOING' ? 'source' : 'destination';
    const typeClause = q.types?.length ? ` AND relationship IN (${q.types.map(() => '?').join(',')})` : '';
    const params = [q.urn, ...(q.types ?? [])];
    // One edge per (source, relationship, destination), whichever aspect declared it.
    const from = `FROM (SELECT source, relationship, destination, MAX(created_on) AS created_on, MAX(created_actor) AS created_actor
      FROM graph_edges WHERE ${column} = ?${typeClause} GROUP BY source, relationship, destination)`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(...params) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * ${from} ORDER BY relationship, source, destination LIMIT ? OFFSET ?`).all(...params, q.count, q.start) as EdgeRow[];
    return { total, edges: rows.map(toEdge) };
  }

  async references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }> {
    const from = 'FROM (SELECT DISTINCT source, via_aspect, relationship FROM graph_edges WHERE destination = ?)';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n ${from}`).get(urn) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * ${from} ORDER BY source, via_aspect, relationship LIMIT ? OFFSET ?`).all(urn, page.count, page.start) as {
      source: string;
      via_aspect: string;
      relationship: string;
    }[];
    return { total, references: rows.map((r) => ({ source: r.source, aspect: r.via_aspect, relationshipType: r.relationship })) };
  }

  async clear(): Promise<void> {
    this.db.exec('DELETE FROM graph_edges');
  }

  /**
   * Without the index by destination until `rebuilt`: a rebuild writes edges in source order, which
   * is the table's, but their destinations all over that index (at 100k entities 840,000 edges took
   * 17.6 s with it, 2.4 s without and 1.2 s to index them after).
   */
  async clearForRebuild(): Promise<void> {
    this.db.transaction(() => this.db.exec('DELETE FROM graph_edges; DROP INDEX IF EXISTS graph_edges_destination;'))();
  }

  async rebuilt(): Promise<void> {
    this.indexDestinations();
  }

  /** A large sort when the index is missing (see `withLargeSort`). */
  private indexDestinations(): void {
    withLargeSort(this.db, () => this.db.exec('CREATE INDEX IF NOT EXISTS graph_edges_destination ON graph_edges (destination, relationship)'));
  }
}
