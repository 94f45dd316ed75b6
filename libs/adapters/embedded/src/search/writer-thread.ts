/**
 * Search writes on a thread of their own, against a search file no other connection writes: the
 * thread that serves HTTP and persists no longer spends its time indexing, and a long index
 * transaction never holds up its commits (SQLite has one writer per file). Readers' memory learns
 * each transaction's changes once it is answered, in the order the writes were sent.
 */
import type { SearchMappings } from '@cairn/ports';
import type { DatabaseOptions } from '../database';
import { CallThread } from './call-thread';
import type { DocumentWrite } from './document-writer';
import type { ReaderState } from './reader-state';
import type { WriterCommitted, WriterRequest } from './worker-messages';

/** The search index's writes, wherever they run: each `apply` is one transaction. */
export interface DocumentWrites {
  apply(writes: readonly DocumentWrite[]): Promise<void>;
  /** Removes every document; `deferRows`: a rebuild's, whose value and term rows wait for `mergeDeferred`. */
  clear(deferRows: boolean): Promise<void>;
  mergeDeferred(): Promise<void>;
  close(): Promise<void>;
  /**
   * Where writing can overlap the caller's work: a large batch's transaction sent in parts, each
   * applied as it arrives and all committed by the batch's `commit`.
   */
  batch?(): PartedTransaction;
}

export interface PartedTransaction {
  send(writes: readonly DocumentWrite[]): void;
  /**
   * Applies the last part and commits; fails if any part failed or was lost. Answers the share of
   * its time the writing thread was busy since its previous answer (undefined: there was nothing to write).
   */
  commit(writes: readonly DocumentWrite[]): Promise<number | undefined>;
}

export class WriterThread implements DocumentWrites {
  private readonly thread: CallThread<WriterRequest>;
  private nextId = 0;
  private nextBatch = 0;

  constructor(
    file: string,
    mappings: SearchMappings,
    sync: DatabaseOptions['sync'],
    private readonly readers: ReaderState,
  ) {
    this.thread = new CallThread<WriterRequest>('writer-worker.ts', { file, mappings, sync }, () => new Error('The search writer is restarting'), { type: 'close' });
  }

  async apply(writes: readonly DocumentWrite[]): Promise<void> {
    if (writes.length === 0) return;
    await this.committed({ writes });
  }

  batch(): PartedTransaction {
    const batch = this.nextBatch++;
    let parts = 0;
    return {
      send: (writes) => {
        parts++;
        this.thread.post({ type: 'part', batch, writes });
      },
      commit: (writes) => (parts === 0 && writes.length === 0 ? Promise.resolve(undefined) : this.committed({ writes, batch: { id: batch, parts } })),
    };
  }

  private async committed(request: { writes: readonly DocumentWrite[]; batch?: { id: number; parts: number } }): Promise<number> {
    const id = this.nextId++;
    const { fields, updates, busy } = await this.thread.call<WriterCommitted>(id, { type: 'apply', id, ...request });
    this.readers.committed(fields, updates);
    return busy;
  }

  async clear(deferRows: boolean): Promise<void> {
    const id = this.nextId++;
    await this.thread.call<void>(id, { type: 'clear', id, deferRows });
    this.readers.cleared();
  }

  async mergeDeferred(): Promise<void> {
    const id = this.nextId++;
    // The thread's writer told its own readers' stub; these readers learn it here.
    if (await this.thread.call<boolean>(id, { type: 'merge', id })) this.readers.rowsMerged();
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
