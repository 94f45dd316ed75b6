/**
 * Checkpoints of the embedded files on a thread of their own. A checkpoint copies the log's pages
 * into the database file and syncs both; run by the connection whose commit filled the log, it
 * held that thread up: at a million entities the thread that serves and persists spent 12% of its
 * time waiting in the checkpoints' fsync, the search writer 29%. This thread copies what is
 * committed every `intervalMs`, without blocking writers or readers (a PASSIVE checkpoint). The
 * writers' own automatic checkpoints stay on: they find little left to copy while this thread
 * keeps up, and bound the log if it falls behind or stops.
 */
import { join } from 'node:path';
import type { DatabaseOptions } from './database';
import { moduleThread } from './module-thread';

export interface CheckpointerOptions {
  readonly sync: DatabaseOptions['sync'];
  readonly intervalMs?: number;
  /** Told when the thread stopped unasked; the writers' own checkpoints carry on. */
  readonly onStopped?: (err: Error) => void;
}

/** What the checkpointer's thread is given. */
export interface CheckpointerData {
  readonly files: readonly string[];
  readonly sync: DatabaseOptions['sync'];
  readonly intervalMs: number;
}

export const CLOSE_CHECKPOINTER = 'close';
const DEFAULT_INTERVAL_MS = 200;

export interface Checkpointer {
  close(): Promise<void>;
}

/** `files`: databases in WAL mode that exist and that this process writes. */
export function startCheckpointer(files: readonly string[], options: CheckpointerOptions): Checkpointer {
  const data: CheckpointerData = { files, sync: options.sync, intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS };
  const worker = moduleThread(join(__dirname, 'checkpoint-worker.ts'), data);
  let closing = false;
  let failure: Error | undefined;
  worker.on('error', (err) => (failure = err));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (!closing) options.onStopped?.(failure ?? new Error(`the checkpointer stopped (exit code ${code})`));
      resolve();
    }),
  );
  worker.unref();
  return {
    close: async () => {
      closing = true;
      // Awaited from here on: unreferenced, the process could end first, before its files are closed.
      worker.ref();
      worker.postMessage(CLOSE_CHECKPOINTER);
      await exited;
    },
  };
}
