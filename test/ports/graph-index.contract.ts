/** The GraphIndex contract: edges replaced per declaring aspect, read once per (source, type, destination). */
import type { Edge, GraphIndex } from '@cairn/ports';

export interface OpenedGraphIndex {
  /** An empty index. */
  readonly graph: GraphIndex;
  close(): Promise<void>;
}

const DS1 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)';
const DS3 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.three,PROD)';
const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const TAG = 'urn:li:tag:pii';

const edge = (source: string, relationshipType: string, destination: string, extra: Partial<Edge> = {}): Edge => ({ source, destination, relationshipType, ...extra });
const triple = (e: Edge) => `${e.source} -${e.relationshipType}-> ${e.destination}`;
const triples = (edges: Edge[]) => edges.map(triple).sort();

export function describeGraphIndexContract(name: string, open: () => Promise<OpenedGraphIndex>): void {
  describe(`GraphIndex contract: ${name}`, () => {
    let opened: OpenedGraphIndex;
    let graph: GraphIndex;

    beforeEach(async () => {
      opened = await open();
      graph = opened.graph;
    });
    afterEach(async () => {
      await opened.close();
    });

    const outgoing = (urn: string, types?: string[]) => graph.edges({ urn, direction: 'OUTGOING', ...(types ? { types } : {}), start: 0, count: 100 });
    const incoming = (urn: string, types?: string[]) => graph.edges({ urn, direction: 'INCOMING', ...(types ? { types } : {}), start: 0, count: 100 });

    it('empties for a rebuild, and answers incoming edges and references during it and after', async () => {
      await graph.replaceEdges(DS3, 'ownership', [edge(DS3, 'OwnedBy', BOB)]);
      await graph.clearForRebuild();
      expect((await incoming(BOB)).total).toBe(0);
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', ALICE)]);
      expect(triples((await incoming(ALICE)).edges)).toEqual([`${DS1} -OwnedBy-> ${ALICE}`, `${DS2} -OwnedBy-> ${ALICE}`]);
      await graph.rebuilt();
      await graph.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', BOB)]);
      expect(triples((await incoming(ALICE)).edges)).toEqual([`${DS1} -OwnedBy-> ${ALICE}`]);
      expect((await graph.references(BOB, { start: 0, count: 10 })).references).toEqual([{ source: DS2, aspect: 'ownership', relationshipType: 'OwnedBy' }]);
    });

    it('returns outgoing edges of the source and incoming edges of the destination', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE), edge(DS1, 'OwnedBy', BOB)]);
      await graph.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', ALICE)]);
      const out = await outgoing(DS1);
      expect(out.total).toBe(2);
      expect(triples(out.edges)).toEqual([`${DS1} -OwnedBy-> ${ALICE}`, `${DS1} -OwnedBy-> ${BOB}`]);
      const into = await incoming(ALICE);
      expect(into.total).toBe(2);
      expect(triples(into.edges)).toEqual([`${DS1} -OwnedBy-> ${ALICE}`, `${DS2} -OwnedBy-> ${ALICE}`]);
      expect((await incoming(DS1)).total).toBe(0);
      expect((await outgoing(ALICE)).total).toBe(0);
    });

    it('keeps createdOn and createdActor', async () => {
      await graph.replaceEdges(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2, { createdOn: 123, createdActor: ALICE }), edge(DS1, 'DownstreamOf', DS3)]);
      const { edges } = await outgoing(DS1);
      const byDest = Object.fromEntries(edges.map((e) => [e.destination, e]));
      expect(byDest[DS2]).toEqual(edge(DS1, 'DownstreamOf', DS2, { createdOn: 123, createdActor: ALICE }));
      expect(byDest[DS3]).toEqual(edge(DS1, 'DownstreamOf', DS3));
    });

    it('replaces only the edges of the same aspect', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS1, 'globalTags', [edge(DS1, 'TaggedWith', TAG)]);
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', BOB)]);
      expect(triples((await outgoing(DS1)).edges)).toEqual([`${DS1} -OwnedBy-> ${BOB}`, `${DS1} -TaggedWith-> ${TAG}`]);
      expect((await incoming(ALICE)).total).toBe(0);
      await graph.replaceEdges(DS1, 'ownership', []);
      expect(triples((await outgoing(DS1)).edges)).toEqual([`${DS1} -TaggedWith-> ${TAG}`]);
    });

    it('replaces the edges of an aspect with exactly the new ones when they overlap, alone or in a batch', async () => {
      const write = async (via: (source: string, aspect: string, edges: Edge[]) => Promise<void>) => {
        await via(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2, { createdOn: 1 }), edge(DS1, 'DownstreamOf', DS3)]);
        // Keeps DS3 as it was, changes DS2's createdOn, drops nothing else, adds ALICE's edge.
        await via(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS3), edge(DS1, 'DownstreamOf', DS2, { createdOn: 2 }), edge(DS1, 'DownstreamOf', ALICE)]);
        await via(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2, { createdOn: 2 }), edge(DS1, 'DownstreamOf', ALICE)]);
      };
      const expected = [edge(DS1, 'DownstreamOf', ALICE), edge(DS1, 'DownstreamOf', DS2, { createdOn: 2 })];
      const byDestination = (edges: Edge[]) => [...edges].sort((a, b) => a.destination.localeCompare(b.destination));
      await write((source, aspect, edges) => graph.replaceEdges(source, aspect, edges));
      expect(byDestination((await outgoing(DS1)).edges)).toEqual(expected);
      expect((await incoming(DS3)).total).toBe(0);

      await graph.replaceEdges(DS1, 'upstreamLineage', []);
      const batch = graph.batch?.();
      if (!batch) return;
      await write((source, aspect, edges) => batch.replaceEdges(source, aspect, edges));
      await batch.flush();
      expect(byDestination((await outgoing(DS1)).edges)).toEqual(expected);
      expect((await incoming(DS3)).total).toBe(0);
    });

    it('replaces only the edges of the same source', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS1, 'ownership', []);
      expect(triples((await incoming(ALICE)).edges)).toEqual([`${DS2} -OwnedBy-> ${ALICE}`]);
    });

    it('reads an edge declared by two aspects once, and keeps it while one still declares it', async () => {
      await graph.replaceEdges(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2)]);
      await graph.replaceEdges(DS1, 'datasetUpstreamLineage', [edge(DS1, 'DownstreamOf', DS2)]);
      expect(await outgoing(DS1)).toEqual({ total: 1, edges: [edge(DS1, 'DownstreamOf', DS2)] });
      expect((await incoming(DS2)).total).toBe(1);
      await graph.replaceEdges(DS1, 'upstreamLineage', []);
      expect((await outgoing(DS1)).total).toBe(1);
      await graph.replaceEdges(DS1, 'datasetUpstreamLineage', []);
      expect((await outgoing(DS1)).total).toBe(0);
    });

    it('reads a repeated edge of one aspect once', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE), edge(DS1, 'OwnedBy', ALICE)]);
      expect((await outgoing(DS1)).total).toBe(1);
    });

    it('filters by relationship types', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS1, 'globalTags', [edge(DS1, 'TaggedWith', TAG)]);
      await graph.replaceEdges(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2)]);
      expect(triples((await outgoing(DS1, ['TaggedWith'])).edges)).toEqual([`${DS1} -TaggedWith-> ${TAG}`]);
      expect((await outgoing(DS1, ['TaggedWith', 'OwnedBy'])).total).toBe(2);
      expect((await outgoing(DS1, ['Nope'])).total).toBe(0);
      expect((await outgoing(DS1, [])).total).toBe(3);
    });

    it('pages with start and count in a stable order, total counting every edge', async () => {
      const owners = Array.from({ length: 7 }, (_, i) => `urn:li:corpuser:user${i}`);
      await graph.replaceEdges(DS1, 'ownership', owners.map((o) => edge(DS1, 'OwnedBy', o)));
      const all = (await outgoing(DS1)).edges.map(triple);
      expect(all).toHaveLength(7);
      const pages: string[] = [];
      for (let start = 0; start < 7; start += 3) {
        const page = await graph.edges({ urn: DS1, direction: 'OUTGOING', start, count: 3 });
        expect(page.total).toBe(7);
        expect(page.edges.length).toBe(Math.min(3, 7 - start));
        pages.push(...page.edges.map(triple));
      }
      expect(pages).toEqual(all);
      expect(await graph.edges({ urn: DS1, direction: 'OUTGOING', start: 10, count: 3 })).toEqual({ total: 7, edges: [] });
    });

    it('counts the edges of a node with thousands of them exactly, each once', async () => {
      // An approximate distinct count (Elasticsearch's cardinality) was seen one short at 500 edges.
      const destinations = Array.from({ length: 5000 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`);
      await graph.replaceEdges(DS1, 'upstreamLineage', destinations.map((d) => edge(DS1, 'DownstreamOf', d)));
      await graph.replaceEdges(DS1, 'datasetUpstreamLineage', destinations.slice(0, 300).map((d) => edge(DS1, 'DownstreamOf', d)));
      const page = await graph.edges({ urn: DS1, direction: 'OUTGOING', start: 4990, count: 20 });
      expect(page.total).toBe(5000);
      expect(page.edges).toHaveLength(10);
    });

    it('removes every edge from and to a node', async () => {
      await graph.replaceEdges(DS1, 'upstreamLineage', [edge(DS1, 'DownstreamOf', DS2)]);
      await graph.replaceEdges(DS2, 'upstreamLineage', [edge(DS2, 'DownstreamOf', DS3)]);
      await graph.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', ALICE)]);
      await graph.replaceEdges(DS3, 'ownership', [edge(DS3, 'OwnedBy', ALICE)]);
      await graph.removeNode(DS2);
      expect((await outgoing(DS1)).total).toBe(0);
      expect((await outgoing(DS2)).total).toBe(0);
      expect((await incoming(DS3)).total).toBe(0);
      expect(triples((await incoming(ALICE)).edges)).toEqual([`${DS3} -OwnedBy-> ${ALICE}`]);
    });

    it("applies a batch's replacements and removals in the order they were made", async () => {
      const batch = graph.batch?.();
      if (!batch) return;
      await batch.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await batch.replaceEdges(DS3, 'upstreamLineage', [edge(DS3, 'DownstreamOf', DS1)]);
      await batch.removeNode(DS1);
      await batch.replaceEdges(DS2, 'ownership', [edge(DS2, 'OwnedBy', ALICE)]);
      await batch.flush();
      expect(triples((await incoming(ALICE)).edges)).toEqual([`${DS2} -OwnedBy-> ${ALICE}`]);
      expect((await outgoing(DS3)).total).toBe(0);
      await batch.flush();
      expect((await incoming(ALICE)).total).toBe(1);
    });

    it('clears every edge', async () => {
      await graph.replaceEdges(DS1, 'ownership', [edge(DS1, 'OwnedBy', ALICE)]);
      await graph.clear();
      expect((await outgoing(DS1)).total).toBe(0);
    });
  });
}
