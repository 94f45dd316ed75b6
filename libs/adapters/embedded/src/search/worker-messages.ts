/** Messages to the search engine's threads (replies are `CallReply`s). */
import type { DocumentWrite } from './document-writer';
import type { MemoryUpdates } from './reader-state';
import type { ReadMethod } from './search-reads';
import type { NewField } from './search-tables';

export type WorkerRequest =
  | { readonly type: 'committed'; readonly fields: readonly NewField[]; readonly updates: MemoryUpdates }
  | { readonly type: 'cleared' }
  | { readonly type: 'rowsMerged' }
  | { readonly type: 'call'; readonly id: number; readonly method: ReadMethod; readonly args: unknown[] }
  | { readonly type: 'close' };

/**
 * To the writer thread: writes applied in one transaction, every document removed (for a rebuild:
 * its value and term rows deferred), or deferred rows merged. A batch's
 * transaction may arrive in parts: `part`s (no reply), then the `apply` that commits it, which
 * says how many parts were sent so that parts lost with a restarted thread fail the batch.
 */
export type WriterRequest =
  | { readonly type: 'apply'; readonly id: number; readonly writes: readonly DocumentWrite[]; readonly batch?: { readonly id: number; readonly parts: number } }
  | { readonly type: 'part'; readonly batch: number; readonly writes: readonly DocumentWrite[] }
  | { readonly type: 'clear'; readonly id: number; readonly deferRows: boolean }
  | { readonly type: 'merge'; readonly id: number }
  | { readonly type: 'close' };

/** The writer's answer to `apply`: what readers' memory must learn, in the order committed. */
export interface WriterCommitted {
  readonly fields: readonly NewField[];
  readonly updates: MemoryUpdates;
  /** The share of its time the writer thread was busy since its previous answer. */
  readonly busy: number;
}
