/** Messages between the embedded catalog's API thread and its pipeline thread (pipeline-worker.ts). */
import { RestliError } from '@cairn/core';
import type { NewRecord } from '@cairn/ports';
import type { PipelineLogs, Settled } from '@cairn/pipeline';

export interface PipelineThreadData {
  readonly dataDir: string;
  readonly durability: 'normal' | 'full';
  /** Threads answering search queries beside the pipeline thread. */
  readonly searchThreads: number;
}

export type TopicKey = keyof PipelineLogs;

/** What a call names: a port of the pipeline thread, a log's producer side, or the thread's own services. */
export type CallTarget = 'search' | 'graph' | 'timeseries' | 'restater' | 'probes' | 'thread' | `log:${TopicKey}`;

export interface AppendRequest {
  readonly type: 'append';
  readonly id: number;
  readonly topic: TopicKey;
  readonly records: ReadonlyArray<NewRecord<unknown>>;
  readonly reproducible: boolean;
  /** Proposals the API thread checked: the pipeline thread takes them as checked (`adoptCheckedProposal`). */
  readonly checked: boolean;
}

export type ToPipeline =
  | AppendRequest
  | { readonly type: 'call'; readonly id: number; readonly target: CallTarget; readonly method: string; readonly args: readonly unknown[] }
  | { readonly type: 'close' };

export interface WireError {
  readonly message: string;
  readonly status?: number;
  readonly exceptionClass?: string;
}

export interface Reply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: WireError;
}

export type WireSettled = { readonly ok: true; readonly result: object } | { readonly ok: false; readonly error: WireError };

export type FromPipeline =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  /** A turn's replies and settled proposals, in one message: replies first, so an append's ids arrive before its outcome. */
  | { readonly type: 'done'; readonly replies: readonly Reply[]; readonly settled: readonly (readonly [string, WireSettled])[] };

/** An error as it crosses threads: a RestliError keeps its status and class. */
export function toWire(err: unknown): WireError {
  if (err instanceof RestliError) return { message: err.message, status: err.status, exceptionClass: err.exceptionClass };
  return { message: err instanceof Error ? err.message : String(err) };
}

export function fromWire(e: WireError): Error {
  return e.status !== undefined ? new RestliError(e.status, e.message, e.exceptionClass) : new Error(e.message);
}

export function settledToWire(outcome: Settled): WireSettled {
  return outcome.ok ? { ok: true, result: outcome.result } : { ok: false, error: toWire(outcome.error) };
}

export function settledFromWire(outcome: WireSettled): Settled {
  if (outcome.ok) return { ok: true, result: outcome.result };
  const error = fromWire(outcome.error);
  return { ok: false, error: error instanceof RestliError ? error : new RestliError(500, error.message) };
}
