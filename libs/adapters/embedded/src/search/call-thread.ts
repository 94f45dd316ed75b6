/**
 * A worker thread of the search engine that answers calls: each call's reply settles its promise,
 * and a thread that stops is started again (calls in flight fail rather than wait forever).
 */
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { RestliError } from '@cairn/core';
import { moduleThread } from '../module-thread';

export interface CallReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string; readonly status?: number; readonly exceptionClass?: string };
}

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

/** A thread that stopped this soon after starting is started again only after RESTART_DELAY_MS. */
const QUICK_EXIT_MS = 5000;
const RESTART_DELAY_MS = 1000;

/** In a worker: the reply to call `id`, `work`'s result or the error it threw. */
export function answer(id: number, work: () => unknown): CallReply {
  try {
    return { id, result: work() };
  } catch (err) {
    if (err instanceof RestliError) return { id, error: { message: err.message, status: err.status, exceptionClass: err.exceptionClass } };
    return { id, error: { message: err instanceof Error ? err.message : String(err) } };
  }
}

export class CallThread<Request extends { readonly type: string }> {
  readonly pending = new Map<number, Pending>();
  /** Undefined while a thread that kept stopping waits to be started again. */
  private worker: Worker | undefined;
  private closing = false;

  /** `script`: the worker's module beside this one; `unavailable`: the error of a call while no thread runs. */
  constructor(
    private readonly script: string,
    private readonly data: unknown,
    private readonly unavailable: () => Error,
    private readonly closeMessage: Request,
  ) {
    this.worker = this.start();
  }

  private start(): Worker {
    const started = Date.now();
    const worker = moduleThread(join(__dirname, this.script), this.data);
    worker.on('message', (reply: CallReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (!reply.error) p.resolve(reply.result);
      else p.reject(reply.error.status ? new RestliError(reply.error.status, reply.error.message, reply.error.exceptionClass) : new Error(reply.error.message));
    });
    worker.on('error', (err) => this.failPending(err));
    // A thread that stops is replaced: the new one starts from what is committed.
    worker.on('exit', () => {
      this.failPending(new Error(`a search thread (${this.script}) stopped`));
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

  /** A message without a reply; dropped while no thread runs (the next one starts from the file). */
  post(message: Request): void {
    this.worker?.postMessage(message);
  }

  call<T>(id: number, message: Request): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!this.worker) return reject(this.unavailable());
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    // Awaited from here on: unreferenced, the process could end first, before its files are closed.
    worker.ref();
    worker.postMessage(this.closeMessage);
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      setTimeout(() => void worker.terminate(), 5000).unref();
    });
  }
}
