import { openDatabase } from './database';
import { SqliteGraphIndex } from './sqlite-graph-index';

const DS = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${n},PROD)`;
const ALICE = 'urn:li:corpuser:alice';
const tables = (db: ReturnType<typeof openDatabase>) => (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'graph%' ORDER BY name").pluck().all() as string[]);

describe('SqliteGraphIndex on a catalog of the layout before names', () => {
  it('moves its edges once, every field kept, indexed by destination', async () => {
    const db = openDatabase(':memory:');
    db.exec(`
      CREATE TABLE graph_edges (
        source TEXT NOT NULL, via_aspect TEXT NOT NULL, relationship TEXT NOT NULL, destination TEXT NOT NULL,
        created_on INTEGER, created_actor TEXT,
        PRIMARY KEY (source, via_aspect, relationship, destination)) WITHOUT ROWID;
      CREATE INDEX graph_edges_destination ON graph_edges (destination, relationship);
    `);
    const insert = db.prepare('INSERT INTO graph_edges VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < 50; i++) insert.run(DS(i), 'ownership', 'OwnedBy', ALICE, i, i % 2 ? 'urn:li:corpuser:datahub' : null);
    insert.run(DS(1), 'upstreamLineage', 'DownstreamOf', DS(2), null, null);

    const graph = new SqliteGraphIndex(db);
    expect(tables(db)).toEqual(['graph_links', 'graph_links_destination', 'graph_names']);
    const owned = await graph.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 100 });
    expect(owned.total).toBe(50);
    expect(owned.edges.find((e) => e.source === DS(7))).toEqual({ source: DS(7), destination: ALICE, relationshipType: 'OwnedBy', createdOn: 7, createdActor: 'urn:li:corpuser:datahub' });
    expect(owned.edges.find((e) => e.source === DS(8))).toEqual({ source: DS(8), destination: ALICE, relationshipType: 'OwnedBy', createdOn: 8 });
    expect((await graph.edges({ urn: DS(1), direction: 'OUTGOING', types: ['DownstreamOf'], start: 0, count: 10 })).edges).toEqual([
      { source: DS(1), destination: DS(2), relationshipType: 'DownstreamOf' },
    ]);
    // Written after the move, on the ids it gave.
    await graph.replaceEdges(DS(7), 'ownership', []);
    expect((await graph.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 100 })).total).toBe(49);

    const reopened = new SqliteGraphIndex(db);
    expect((await reopened.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 100 })).total).toBe(49);
    db.close();
  });
});
