/**
 * The graph index with its writes on a thread of its own, against a graph file no other connection
 * writes. Edges land all over two B-trees keyed by URN (about two pages a change log at 100k
 * entities): in the catalog file, a search batch's graph transaction held the pipeline thread, and
 * every request waiting on it, for tens of milliseconds (docs/performance.md, the twenty-sixth
 * session). Reads run on the caller's connection, which sees each write once its call is answered.
 */
import { join } from 'node:path';
import type { Edge, GraphIndex, GraphWriteBatch, Reference } from '@cairn/ports';
import { CallThread } from './call-thread';
import type { DatabaseOptions, EmbeddedDb } from './database';
import { collectGraphWrites, SqliteGraphIndex, type GraphWrite } from './sqlite-graph-index';

export interface GraphThreadData {
  readonly file: string;
  readonly sync: DatabaseOptions['sync'];
}

export type GraphWriterRequest =
  | { readonly type: 'apply'; readonly id: number; readonly writes: readonly GraphWrite[] }
  | { readonly type: 'clear' | 'clearForRebuild' | 'rebuilt'; readonly id: number }
  | { readonly type: 'close' };

export class ThreadedGraphIndex implements GraphIndex {
  private readonly reads: SqliteGraphIndex;
  private readonly thread: CallThread<GraphWriterRequest>;
  private nextId = 0;

  /** `db`: the graph file, opened by this process (`openDatabase`); its tables are made here, before the thread starts. */
  constructor(db: EmbeddedDb, sync: DatabaseOptions['sync']) {
    this.reads = new SqliteGraphIndex(db);
    const data: GraphThreadData = { file: db.name, sync };
    this.thread = new CallThread<GraphWriterRequest>(join(__dirname, 'graph-worker.ts'), data, () => new Error('The graph writer is restarting'), { type: 'close' });
  }

  replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void> {
    return this.apply([{ kind: 'replace', source, via: viaAspect, edges }]);
  }

  removeNode(urn: string): Promise<void> {
    return this.apply([{ kind: 'removeNode', urn }]);
  }

  batch(): GraphWriteBatch {
    return collectGraphWrites((writes) => this.apply(writes));
  }

  edges(query: Parameters<GraphIndex['edges']>[0]): Promise<{ total: number; edges: Edge[] }> {
    return this.reads.edges(query);
  }

  references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }> {
    return this.reads.references(urn, page);
  }

  clear(): Promise<void> {
    return this.request('clear');
  }

  clearForRebuild(): Promise<void> {
    return this.request('clearForRebuild');
  }

  rebuilt(): Promise<void> {
    return this.request('rebuilt');
  }

  close(): Promise<void> {
    return this.thread.close();
  }

  private apply(writes: readonly GraphWrite[]): Promise<void> {
    const id = this.nextId++;
    return this.thread.call<void>(id, { type: 'apply', id, writes });
  }

  private request(type: 'clear' | 'clearForRebuild' | 'rebuilt'): Promise<void> {
    const id = this.nextId++;
    return this.thread.call<void>(id, { type, id });
  }
}
