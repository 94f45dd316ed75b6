/** GraphIndex on SQLite: edges keyed by the aspect that declares them, their names as integers. */
import type { Edge, GraphIndex, GraphWriteBatch, Reference } from '@cairn/ports';
import { withLargeSort, type EmbeddedDb } from './database';
import { GraphNames } from './graph-names';

interface LinkRow {
  relationship: number;
  destination: number;
  created_on: number | null;
  created_actor: number | null;
}

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

const idOfName = '(SELECT id FROM graph_names WHERE name = ?)';

/**
 * Why integers: with the URNs themselves in the table and in its index by destination, at 100k
 * entities each batch of the ingest wrote about 2,600 pages of edges, a third of every page the
 * catalog file logged, as each edge landed on a page of its own in that index. A source's id is
 * given when it is first seen, so a new entity's edges append to the table, and a popular
 * destination's (a tag, an owner) append to its run in the index. Names outlive their edges until
 * `clear` or a rebuild.
 */
export class SqliteGraphIndex implements GraphIndex {
  private readonly names: GraphNames;
  private readonly stmts;

  constructor(private readonly db: EmbeddedDb) {
    this.names = new GraphNames(db);
    db.exec(`
      CREATE TABLE IF NOT EXISTS graph_links (
        source INTEGER NOT NULL, via_aspect INTEGER NOT NULL, relationship INTEGER NOT NULL, destination INTEGER NOT NULL,
        created_on INTEGER, created_actor INTEGER,
        PRIMARY KEY (source, via_aspect, relationship, destination)) WITHOUT ROWID;
    `);
    moveTextEdges(db);
    // Also after a rebuild that did not end (the process stopped before `rebuilt`).
    this.indexDestinations();
    this.stmts = {
      selectVia: db.prepare('SELECT relationship, destination, created_on, created_actor FROM graph_links WHERE source = ? AND via_aspect = ?'),
      deleteLink: db.prepare('DELETE FROM graph_links WHERE source = ? AND via_aspect = ? AND relationship = ? AND destination = ?'),
      insert: db.prepare('INSERT OR REPLACE INTO graph_links (source, via_aspect, relationship, destination, created_on, created_actor) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteNode: db.prepare('DELETE FROM graph_links WHERE source = ? OR destination = ?'),
    };
  }

  async replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void> {
    this.names.write(() => this.replace(source, viaAspect, edges));
  }

  /** A change-log batch's writes in one transaction. */
  batch(): GraphWriteBatch {
    const writes: (() => void)[] = [];
    return {
      replaceEdges: async (source, viaAspect, edges) => void writes.push(() => this.replace(source, viaAspect, edges)),
      removeNode: async (urn) => void writes.push(() => this.remove(urn)),
      flush: async () => {
        const taken = writes.splice(0);
        this.names.write(() => {
          for (const w of taken) w();
        });
      },
    };
  }

  async removeNode(urn: string): Promise<void> {
    this.names.write(() => this.remove(urn));
  }

  /**
   * Writes only what differs from the aspect's stored edges: a changed aspect whose edges did not
   * change (a schema whose fields' tags stayed, an ownership whose owners stayed) then dirties no
   * page of the table or of its index by destination.
   */
  private replace(source: string, via: string, edges: readonly Edge[]): void {
    const { names } = this;
    // Names are made for edges to write, not for an aspect that declares none and never did.
    const sourceId = edges.length ? names.idOf(source) : names.known(source);
    const viaId = edges.length ? names.idOf(via) : names.known(via);
    if (sourceId === undefined || viaId === undefined) return;
    const stored = new Map<string, LinkRow>();
    for (const row of this.stmts.selectVia.all(sourceId, viaId) as LinkRow[]) stored.set(`${row.relationship} ${row.destination}`, row);
    for (const e of edges) {
      const relationship = names.idOf(e.relationshipType);
      const destination = names.idOf(e.destination);
      const key = `${relationship} ${destination}`;
      const was = stored.get(key);
      stored.delete(key);
      const createdOn = e.createdOn ?? null;
      const createdActor = e.createdActor === undefined ? null : names.idOf(e.createdActor);
      if (was && was.created_on === createdOn && was.created_actor === createdActor) continue;
      this.stmts.insert.run(sourceId, viaId, relationship, destination, createdOn, createdActor);
    }
    for (const gone of stored.values()) this.stmts.deleteLink.run(sourceId, viaId, gone.relationship, gone.destination);
  }

  private remove(urn: string): void {
    const id = this.names.known(urn);
    if (id !== undefined) this.stmts.deleteNode.run(id, id);
  }

  async edges(q: { urn: string; direction: 'INCOMING' | 'OUTGOING'; types?: readonly string[]; start: number; count: number }): Promise<{ total: number; edges: Edge[] }> {
    const column = q.direction === 'OUTGOING' ? 'source' : 'destination';
    const typeClause = q.types?.length ? ` AND l.relationship IN (SELECT id FROM graph_names WHERE name IN (${q.types.map(() => '?').join(',')}))` : '';
    const params = [q.urn, ...(q.types ?? [])];
    const where = `WHERE l.${column} = ${idOfName}${typeClause}`;
    // One edge per (source, relationship, destination), whichever aspect declared it.
    const group = 'GROUP BY l.source, l.relationship, l.destination';
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM graph_links l ${where} ${group})`).get(...params) as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT s.name AS source, r.name AS relationship, d.name AS destination, MAX(l.created_on) AS created_on, MAX(a.name) AS created_actor
        FROM graph_links l JOIN graph_names s ON s.id = l.source JOIN graph_names r ON r.id = l.relationship JOIN graph_names d ON d.id = l.destination
        LEFT JOIN graph_names a ON a.id = l.created_actor
        ${where} ${group} ORDER BY r.name, s.name, d.name LIMIT ? OFFSET ?`,
      )
      .all(...params, q.count, q.start) as EdgeRow[];
    return { total, edges: rows.map(toEdge) };
  }

  async references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }> {
    const where = `WHERE l.destination = ${idOfName}`;
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM (SELECT DISTINCT l.source, l.via_aspect, l.relationship FROM graph_links l ${where})`).get(urn) as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT DISTINCT s.name AS source, v.name AS via_aspect, r.name AS relationship
        FROM graph_links l JOIN graph_names s ON s.id = l.source JOIN graph_names v ON v.id = l.via_aspect JOIN graph_names r ON r.id = l.relationship
        ${where} ORDER BY s.name, v.name, r.name LIMIT ? OFFSET ?`,
      )
      .all(urn, page.count, page.start) as { source: string; via_aspect: string; relationship: string }[];
    return { total, references: rows.map((r) => ({ source: r.source, aspect: r.via_aspect, relationshipType: r.relationship })) };
  }

  async clear(): Promise<void> {
    this.names.write(() => {
      this.db.exec('DELETE FROM graph_links');
      this.names.forgetAll();
    });
  }

  /**
   * Without the index by destination until `rebuilt`: a rebuild writes edges in about source order,
   * the table's, but their destinations all over that index (at 100k entities 840,000 edges took
   * 17.6 s with it, 2.4 s without and 1.2 s to index them after). The names go too, so that the
   * sources' ids follow the rebuild's order.
   */
  async clearForRebuild(): Promise<void> {
    this.names.write(() => {
      this.db.exec('DELETE FROM graph_links; DROP INDEX IF EXISTS graph_links_destination;');
      this.names.forgetAll();
    });
  }

  async rebuilt(): Promise<void> {
    this.indexDestinations();
  }

  /** A large sort when the index is missing (see `withLargeSort`). */
  private indexDestinations(): void {
    withLargeSort(this.db, () => this.db.exec('CREATE INDEX IF NOT EXISTS graph_links_destination ON graph_links (destination, relationship)'));
  }
}

/** A catalog of the layout before names (its edges as strings, `graph_edges`) has them moved, once. */
function moveTextEdges(db: EmbeddedDb): void {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'graph_edges'").get()) return;
  withLargeSort(db, () =>
    db.transaction(() =>
      db.exec(`
        INSERT OR IGNORE INTO graph_names (name)
          SELECT source FROM graph_edges UNION SELECT via_aspect FROM graph_edges UNION SELECT relationship FROM graph_edges
          UNION SELECT destination FROM graph_edges UNION SELECT created_actor FROM graph_edges WHERE created_actor IS NOT NULL;
        INSERT OR REPLACE INTO graph_links (source, via_aspect, relationship, destination, created_on, created_actor)
          SELECT s.id, v.id, r.id, d.id, e.created_on, a.id FROM graph_edges e
          JOIN graph_names s ON s.name = e.source JOIN graph_names v ON v.name = e.via_aspect
          JOIN graph_names r ON r.name = e.relationship JOIN graph_names d ON d.name = e.destination
          LEFT JOIN graph_names a ON a.name = e.created_actor;
        DROP TABLE graph_edges;
      `),
    )(),
  );
}
