/**
 * The API thread's side of the embedded catalog's pipeline thread (pipeline-worker.ts): calls to
 * its ports, appends to its logs (a turn's in one message), and its settled proposals handed to
 * the waiting requests. A thread that stops is started again: calls in flight fail with 503, and
 * writes waiting to be applied are settled by the new thread, which applies what is in the log.
 */
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { createLogger, RestliError } from '@cairn/core';
import { moduleThread } from '@cairn/adapter-embedded';
import type { MetricsData } from '@cairn/observability';
import type { AppendOptions, NewRecord } from '@cairn/ports';
import type { ProposalSettler } from '@cairn/pipeline';
import { fromWire, settledFromWire, type CallTarget, type FromPipeline, type PipelineThreadData, type ToPipeline, type TopicKey } from './messages';

interface Pending {
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
}

/** A thread that stopped this soon after starting is started again only after RESTART_DELAY_MS. */
const QUICK_EXIT_MS = 5000;
const RESTART_DELAY_MS = 1000;

const restarting = () => new RestliError(503, 'The catalog pipeline is restarting; retry shortly');

export class PipelineThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private worker: Worker | undefined;
  private closing = false;

  private constructor(
    private readonly data: PipelineThreadData,
    private readonly settler: ProposalSettler,
  ) {}

  /** Starts the thread; resolves once it has opened the catalog (and rejects with why it could not). */
  static async start(data: PipelineThreadData, settler: ProposalSettler): Promise<PipelineThread> {
    const thread = new PipelineThread(data, settler);
    await thread.run();
    return thread;
  }

  private run(): Promise<void> {
    const started = Date.now();
    const worker = moduleThread(join(__dirname, 'pipeline-worker.ts'), this.data);
    this.worker = worker;
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (m: FromPipeline) => {
        if (m.type === 'ready') {
          ready = true;
          resolve();
        } else if (m.type === 'failed') reject(new Error(m.message));
        else this.done(m);
      });
      worker.on('error', (err) => {
        if (!ready) reject(err);
        else createLogger('standalone').error('the pipeline thread failed', { error: String(err.stack ?? err) });
      });
      worker.on('exit', () => {
        this.worker = undefined;
        for (const p of this.pending.values()) p.reject(restarting());
        this.pending.clear();
        if (!ready) return reject(new Error('the pipeline thread stopped while starting'));
        if (this.closing) return;
        const again = () => void this.run().catch((err: Error) => createLogger('standalone').error('the pipeline thread did not start again', { error: err.message }));
        if (Date.now() - started >= QUICK_EXIT_MS) again();
        else setTimeout(() => this.closing || again(), RESTART_DELAY_MS).unref();
      });
    });
  }

  private done(m: Extract<FromPipeline, { type: 'done' }>): void {
    for (const reply of m.replies) {
      const p = this.pending.get(reply.id);
      if (!p) continue;
      this.pending.delete(reply.id);
      if (reply.error) p.reject(fromWire(reply.error));
      else p.resolve(reply.result);
    }
    for (const [id, outcome] of m.settled) this.settler.settle(id, settledFromWire(outcome));
  }

  private request<T>(post: (id: number) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!this.worker) return reject(restarting());
      const id = this.nextId++;
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      post(id);
    });
  }

  /** Calls `method` of one of the thread's ports (the arguments and result are copied across). */
  call<T>(target: CallTarget, method: string, args: readonly unknown[]): Promise<T> {
    return this.request<T>((id) => this.post({ type: 'call', id, target, method, args }));
  }

  /**
   * Appends to a log of the thread; `checked`: the records are proposals this thread checked. Each
   * append is posted at once rather than with the rest of the turn's: the pipeline thread starts on
   * it while this one reads the next requests (one message a turn was 8% slower at 10k entities).
   */
  append<T>(topic: TopicKey, records: ReadonlyArray<NewRecord<T>>, options: AppendOptions & { checked?: boolean } = {}): Promise<string[]> {
    return this.request<string[]>((id) =>
      this.post({ type: 'append', id, topic, records, reproducible: options.reproducible === true, checked: options.checked === true }),
    );
  }

  /** The thread's metrics, to be served with this thread's. */
  metrics(): Promise<MetricsData> {
    return this.call<MetricsData>('thread', 'metrics', []);
  }

  private post(message: ToPipeline): void {
    this.worker?.postMessage(message);
  }

  /** Stops the thread's consumers and closes the catalog's files. */
  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.postMessage({ type: 'close' } satisfies ToPipeline);
    });
  }
}
