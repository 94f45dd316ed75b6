/**
 * Names the calling thread for the operating system (`top -H`, `/proc/<pid>/task/<tid>/comm`), so
 * that the service's threads, all `node` otherwise, tell apart in any tool and the benchmark can
 * report the CPU of each. Linux keeps 15 characters of a name.
 */
import { writeFileSync } from 'node:fs';

export const THREAD_NAMES = { pipeline: 'pipeline', searchWriter: 'search-writer', searchReader: 'search-reader', checkpointer: 'checkpointer' } as const;

export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // No /proc (not Linux): the thread keeps its name; nothing depends on it.
  }
}
