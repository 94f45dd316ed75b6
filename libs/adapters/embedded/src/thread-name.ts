/**
 * Names the calling thread for the operating system (`top -H`, `/proc/<pid>/task/<tid>/comm`), so
 * that the service's threads, all `node` otherwise, tell apart in any tool and the benchmark can
 * report the CPU of each. Linux keeps 15 characters of a name.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

export const THREAD_NAMES = { pipeline: 'pipeline', searchWriter: 'search-writer', searchReader: 'search-reader', checkpointer: 'checkpointer' } as const;

export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // No /proc (not Linux): the thread keeps its name; nothing depends on it.
  }
}

/** How far below the other threads a background thread's scheduling priority is (a nice value). */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the calling thread's scheduling priority: on Linux a thread's nice value is its own, so
 * the threads a request waits for (the API's, the pipeline's) get a core first when the search
 * writer's or the checkpointer's batches would hold it. At 10k entities the ingest ran 4% more
 * proposals a second in three alternating pairs (docs/performance.md).
 */
export function runInBackground(): void {
  setOwnPriority(BACKGROUND_NICENESS);
}

/**
 * The calling thread's priority back to the process's default, for work that others wait for (the
 * search writer during a rebuild). Only a privileged process may raise a priority again: elsewhere
 * the thread stays in the background.
 */
export function runInForeground(): void {
  setOwnPriority(0);
}

function setOwnPriority(niceness: number): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), niceness);
  } catch {
    // No /proc, or no right to the priority asked: the thread keeps the one it has.
  }
}
