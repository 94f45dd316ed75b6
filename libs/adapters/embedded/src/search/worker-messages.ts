/** Messages between the writer's thread and reader threads. */
import type { MemoryUpdate } from './reader-state';
import type { ReadMethod } from './search-reads';
import type { NewField } from './search-tables';

export type WorkerRequest =
  | { readonly type: 'committed'; readonly fields: readonly NewField[]; readonly updates: readonly MemoryUpdate[] }
  | { readonly type: 'cleared' }
  | { readonly type: 'call'; readonly id: number; readonly method: ReadMethod; readonly args: unknown[] }
  | { readonly type: 'close' };

export interface WorkerReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string; readonly status?: number; readonly exceptionClass?: string };
}
