/**
 * Search queries on reader threads, so they use the machine's other cores and never wait behind
 * (or hold up) the writes of the thread that serves HTTP and persists. Each thread keeps its own
 * copy of the readers' memory; committed changes are posted to every thread, and a query goes to
 * the thread with the fewest queries outstanding.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { RestliError } from '@cairn/core';
import type { SearchMappings } from '@cairn/ports';
import type { MemoryUpdate, ReaderState } from './reader-state';
import type { ReadMethod, SearchReads } from './search-reads';
import type { NewField } from './search-tables';
import type { WorkerReply, WorkerRequest } from './worker-messages';

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

// The worker is TypeScript like the rest of the service: it registers tsx's loader itself, as
// module hooks of the parent thread do not reach worker threads.
const BOOTSTRAP = `require(require.resolve('tsx/cjs', { paths: [${JSON.stringify(__dirname)}] })); require(${JSON.stringify(join(__dirname, 'search-worker.ts'))});`;

/** A thread that stopped this soon after starting is started again only after RESTART_DELAY_MS. */
const QUICK_EXIT_MS = 5000;
const RESTART_DELAY_MS = 1000;

class ReaderThread {
  readonly pending = new Map<number, Pending>();
  /** Undefined while a thread that kept stopping waits to be started again. */
  private worker: Worker | undefined;
  private closing = false;

  constructor(private readonly data: { file: string; mappings: SearchMappings }) {
    this.worker = this.start();
  }

  private start(): Worker {
    const started = Date.now();
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: this.data });
    worker.on('message', (reply: WorkerReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (!reply.error) p.resolve(reply.result);
      else p.reject(reply.error.status ? new RestliError(reply.error.status, reply.error.message, reply.error.exceptionClass) : new Error(reply.error.message));
    });
    worker.on('error', (err) => this.failPending(err));
    // A thread that stops is replaced: the new one loads what is committed, then follows the messages.
    worker.on('exit', () => {
      this.failPending(new Error('a search reader thread stopped'));
      this.worker = undefined;
      if (this.closing) return;
      if (Date.now() - started >= QUICK_EXIT_MS) this.worker = this.start();
      else setTimeout(() => this.closing || (this.worker = this.start()), RESTART_DELAY_MS).unref();
    });
    worker.unref();
    return worker;
  }

  private failPending(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Changes are dropped while no thread runs: the next one loads them from the file. */
  post(message: WorkerRequest): void {
    this.worker?.postMessage(message);
  }

  call(id: number, message: WorkerRequest, pending: Pending): void {
    if (!this.worker) return pending.reject(new RestliError(503, 'Search is restarting; retry shortly'));
    this.pending.set(id, pending);
    this.worker.postMessage(message);
  }

  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      setTimeout(() => void worker.terminate(), 5000).unref();
    });
  }
}

export class ReaderThreads implements ReaderState, SearchReads {
  private readonly threads: ReaderThread[];
  private nextId = 0;

  constructor(count: number, file: string, mappings: SearchMappings) {
    this.threads = Array.from({ length: count }, () => new ReaderThread({ file, mappings }));
  }

  committed(fields: readonly NewField[], updates: readonly MemoryUpdate[]): void {
    if (fields.length === 0 && updates.length === 0) return;
    for (const t of this.threads) t.post({ type: 'committed', fields, updates });
  }

  cleared(): void {
    for (const t of this.threads) t.post({ type: 'cleared' });
  }

  private call<T>(method: ReadMethod, args: unknown[]): Promise<T> {
    const thread = this.threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => thread.call(id, { type: 'call', id, method, args }, { resolve: resolve as (v: unknown) => void, reject }));
  }

  search: SearchReads['search'] = (...args) => this.call('search', args);
  scroll: SearchReads['scroll'] = (...args) => this.call('scroll', args);
  autocomplete: SearchReads['autocomplete'] = (...args) => this.call('autocomplete', args);
  browse: SearchReads['browse'] = (...args) => this.call('browse', args);
  countByType: SearchReads['countByType'] = (...args) => this.call('countByType', args);

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
