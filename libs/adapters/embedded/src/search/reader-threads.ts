/**
 * Search queries on reader threads, so they use the machine's other cores and never wait behind
 * (or hold up) the writes of the thread that serves HTTP and persists. Each thread keeps its own
 * copy of the readers' memory; committed changes are posted to every thread, and a query goes to
 * the thread with the fewest queries outstanding.
 */
import { RestliError } from '@cairn/core';
import type { SearchMappings } from '@cairn/ports';
import { CallThread } from './call-thread';
import type { MemoryUpdates, ReaderState } from './reader-state';
import type { ReadMethod, SearchReads } from './search-reads';
import type { NewField } from './search-tables';
import type { WorkerRequest } from './worker-messages';

export class ReaderThreads implements ReaderState, SearchReads {
  private readonly threads: CallThread<WorkerRequest>[];
  private nextId = 0;
  constructor(count: number, file: string, mappings: SearchMappings) {
    this.threads = Array.from(
      { length: count },
      () => new CallThread<WorkerRequest>('search-worker.ts', { file, mappings }, () => new RestliError(503, 'Search is restarting; retry shortly'), { type: 'close' }),
    );
  }

  committed(fields: readonly NewField[], updates: MemoryUpdates): void {
    if (fields.length === 0 && updates.length === 0) return;
    for (const t of this.threads) t.post({ type: 'committed', fields, updates });
  }

  cleared(): void {
    for (const t of this.threads) t.post({ type: 'cleared' });
  }

  rowsMerged(): void {
    for (const t of this.threads) t.post({ type: 'rowsMerged' });
  }

  private call<T>(method: ReadMethod, args: unknown[]): Promise<T> {
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return thread.call<T>(id, { type: 'call', id, method, args });
  }

  search: SearchReads['search'] = (...args) => this.call('search', args);
  scroll: SearchReads['scroll'] = (...args) => this.call('scroll', args);
  autocomplete: SearchReads['autocomplete'] = (...args) => this.call('autocomplete', args);
  /** One message for them all: a thread's round trip costs more than an autocomplete of a type with few documents. */
  autocompleteEach: SearchReads['autocompleteEach'] = (...args) => this.call('autocompleteEach', args);
  browse: SearchReads['browse'] = (...args) => this.call('browse', args);
  countByType: SearchReads['countByType'] = (...args) => this.call('countByType', args);

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
