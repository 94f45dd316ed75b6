import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database';
import { moveGraphEdges } from './graph-file';
import { SqliteGraphIndex } from './sqlite-graph-index';

const dir = mkdtempSync(join(tmpdir(), 'cairn-graph-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DS = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${n},PROD)`;
const ALICE = 'urn:li:corpuser:alice';
const hasTable = (db: ReturnType<typeof openDatabase>, name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;

/** A catalog file of the earlier layout, its edges in the catalog's own tables. */
function earlierCatalog(name: string, sources: number) {
  const catalog = openDatabase(join(dir, `${name}-catalog.db`));
  const old = new SqliteGraphIndex(catalog);
  for (let i = 0; i < sources; i++) void old.replaceEdges(DS(i), 'ownership', [{ source: DS(i), destination: ALICE, relationshipType: 'OwnedBy', createdOn: i }]);
  return catalog;
}

describe('moveGraphEdges', () => {
  it("moves the catalog file's edges into the graph file, indexed by destination, and drops them there", async () => {
    const catalog = earlierCatalog('moved', 120);
    const graphDb = openDatabase(join(dir, 'moved-graph.db'));
    moveGraphEdges(catalog, graphDb);
    expect(hasTable(catalog, 'graph_edges')).toBe(false);
    expect(hasTable(graphDb, 'graph_edges_destination')).toBe(true);
    const graph = new SqliteGraphIndex(graphDb);
    const incoming = await graph.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 200 });
    expect(incoming.total).toBe(120);
    expect(incoming.edges.find((e) => e.source === DS(7))).toEqual({ source: DS(7), destination: ALICE, relationshipType: 'OwnedBy', createdOn: 7 });
    // Moved once: opening again changes nothing.
    moveGraphEdges(catalog, graphDb);
    expect((await graph.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 200 })).total).toBe(120);
    catalog.close();
    graphDb.close();
  });

  it('moves again from the start when an earlier move stopped before dropping the old edges', async () => {
    const catalog = earlierCatalog('halfway', 30);
    const graphDb = openDatabase(join(dir, 'halfway-graph.db'));
    // What a move that stopped halfway left: some edges copied, one of them changed since in no file.
    const graph = new SqliteGraphIndex(graphDb);
    await graph.replaceEdges(DS(3), 'ownership', [{ source: DS(3), destination: 'urn:li:corpuser:stale', relationshipType: 'OwnedBy' }]);
    moveGraphEdges(catalog, graphDb);
    expect((await graph.edges({ urn: ALICE, direction: 'INCOMING', start: 0, count: 100 })).total).toBe(30);
    expect((await graph.edges({ urn: 'urn:li:corpuser:stale', direction: 'INCOMING', start: 0, count: 100 })).total).toBe(0);
    catalog.close();
    graphDb.close();
  });

  it('leaves a catalog without edges of its own alone', () => {
    const catalog = openDatabase(join(dir, 'new-catalog.db'));
    const graphDb = openDatabase(join(dir, 'new-graph.db'));
    moveGraphEdges(catalog, graphDb);
    expect(hasTable(graphDb, 'graph_edges')).toBe(false);
    catalog.close();
    graphDb.close();
  });
});
