/**
 * Gives a burst's garbage back once a thread is idle. V8 collects when allocation calls for it, so
 * a thread that stops allocating after a burst keeps the burst's garbage until V8's memory reducer
 * gets to it: after a 10k catalog loaded through `ingestProposalBatch` the main thread's heap held
 * 300 to 420 MB, about 50 of it live, and the process stayed at 710 MB for a minute (160 MB before
 * the load; 220 MB once the reducer had run). A thread idle for a few seconds whose heap has grown
 * well past the smallest it has been since its last collection is collected once, fully and
 * compacting: the same process was at 340 MB four seconds after the load and 270 MB after twenty.
 * Growth is judged on the heap V8 has committed, which its own collections under the load do not
 * shrink, and at 24 MB: with 64 MB of used heap as the bound, a 100k catalog's one-proposal-a-request
 * load left the process at 333 MB for 28 s; with this one the main thread is collected 3 s after the
 * load (108 to 36 MB used) and the process is at 267 MB.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCollectorOptions {
  /** How often the thread's load and heap are looked at. */
  readonly checkMs?: number;
  /** Checks in a row the thread must be idle (its event loop busy under 5% of the time). */
  readonly idleChecks?: number;
  /** Growth of the committed heap, past the smallest seen since the last collection, worth a collection. */
  readonly growthBytes?: number;
  readonly collected?: (usedBefore: number, usedAfter: number) => void;
}

const IDLE_UTILIZATION = 0.05;

/** V8's full collection: the process's flag when it was started with `--expose-gc`, set here otherwise. */
function exposedGc(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  setFlagsFromString('--expose-gc');
  // The flag exposes `gc` in contexts made after it is set (and in threads started after it).
  return runInNewContext('gc') as () => void;
}

/**
 * A full collection that also compacts: after a burst the few live objects lie scattered over the
 * heap's pages, and a collection that only sweeps frees hardly a page of them.
 */
function fullCollection(): () => void {
  const gc = exposedGc();
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

/** Starts watching the calling thread (the main one or a worker); `stop` ends it. It never keeps the thread alive. */
export function collectGarbageWhenIdle(options: IdleCollectorOptions = {}): { stop(): void } {
  const { checkMs = 1000, idleChecks = 3, growthBytes = 24 * 1024 * 1024 } = options;
  const collect = fullCollection();
  let smallest = getHeapStatistics().total_heap_size;
  let idleInARow = 0;
  let load = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    idleInARow = performance.eventLoopUtilization(now, load).utilization < IDLE_UTILIZATION ? idleInARow + 1 : 0;
    load = now;
    const { total_heap_size: committed, used_heap_size: used } = getHeapStatistics();
    smallest = Math.min(smallest, committed);
    if (idleInARow < idleChecks || committed - smallest < growthBytes) return;
    collect();
    const after = getHeapStatistics();
    options.collected?.(used, after.used_heap_size);
    // A collection that gave no pages back is not repeated until the heap grows again.
    smallest = after.total_heap_size;
    idleInARow = 0;
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
