/**
 * Gives a burst's garbage back once a thread is idle. V8 collects when allocation calls for it, so
 * a thread that stops allocating after a burst keeps the burst's garbage until V8's memory reducer
 * gets to it: after a 10k catalog loaded through `ingestProposalBatch` the main thread's heap held
 * 300 to 420 MB, about 50 of it live, and the process stayed at 710 MB for a minute (160 MB before
 * the load; 220 MB once the reducer had run). A thread idle for a few seconds whose heap has grown
 * well past the smallest it has been since its last collection is collected once.
 *
 * Growth is judged on the heap V8 has committed, which its own collections under the load do not
 * shrink, and at 24 MB: with 64 MB of used heap as the bound, a 100k catalog's one-proposal-a-request
 * load left the process at 333 MB for 28 s.
 *
 * The collection is the one V8 makes under memory pressure, which also gives back the young
 * generation (grown to 32 MB in each busy thread): a full collection as `gc()` makes it keeps that
 * unless V8 has measured the thread's allocation as low, which after a burst it mostly has not. The
 * three busy threads of that 100k load kept 96 MB of young generation between them (306 MB settled).
 * That collection is several full ones and a walk of the heap, about 9 ms a live MB against 1 ms for
 * a compacting full collection (the main thread after that 100k load: 567 ms, 39 MB live). Over a
 * large live heap (a million entities' search catalog) it would hold the thread for seconds: a
 * compacting full collection comes first, and the memory-pressure one follows only where that
 * left at most 64 MB in use.
 */
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleCollectorOptions {
  /** How often the thread's load and heap are looked at. */
  readonly checkMs?: number;
  /** Checks in a row the thread must be idle (its event loop busy under 5% of the time). */
  readonly idleChecks?: number;
  /** Growth of the committed heap, past the smallest seen since the last collection, worth a collection. */
  readonly growthBytes?: number;
  /** Live heap (in use after a compacting full collection) up to which V8's memory-pressure collection follows it. */
  readonly reducingUpToLiveBytes?: number;
  /** The committed heap before and after the collection, and how long it held the thread. */
  readonly collected?: (committedBefore: number, committedAfter: number, ms: number) => void;
}

const IDLE_UTILIZATION = 0.05;

type QueryObjects = (ctor: new () => unknown, options: { format: 'count' }) => number;

/**
 * V8's collection of every available garbage, compacting and shrinking the young generation. Node
 * offers no call for it but `v8.queryObjects` (Node 20.13 and later), which makes it before it
 * counts a class's instances (counting a class never instantiated adds one walk of the live heap).
 * The API is marked experimental: its one-time warning would read as a fault in the service's log,
 * so it is not emitted.
 */
function memoryReducingCollection(): (() => void) | undefined {
  const queryObjects = (v8 as { queryObjects?: QueryObjects }).queryObjects;
  if (typeof queryObjects !== 'function') return undefined;
  class NeverInstantiated {}
  return () => {
    const emitWarning = process.emitWarning;
    process.emitWarning = () => undefined;
    try {
      queryObjects(NeverInstantiated, { format: 'count' });
    } finally {
      process.emitWarning = emitWarning;
    }
  };
}

/**
 * A full collection that also compacts (after a burst the few live objects lie scattered over the
 * heap's pages, and a collection that only sweeps frees hardly a page of them): always the first,
 * and the only one where `v8.queryObjects` is missing or the live heap is large. `gc` is the
 * process's when it was started with `--expose-gc`, set here otherwise.
 */
function compactingCollection(): () => void {
  if (typeof globalThis.gc !== 'function') v8.setFlagsFromString('--expose-gc');
  // The flag exposes `gc` in contexts made after it is set (and in threads started after it).
  const gc = typeof globalThis.gc === 'function' ? globalThis.gc : (runInNewContext('gc') as () => void);
  return () => {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

/** Starts watching the calling thread (the main one or a worker); `stop` ends it. It never keeps the thread alive. */
export function collectGarbageWhenIdle(options: IdleCollectorOptions = {}): { stop(): void } {
  const { checkMs = 1000, idleChecks = 3, growthBytes = 24 * 1024 * 1024, reducingUpToLiveBytes = 64 * 1024 * 1024 } = options;
  const reducing = memoryReducingCollection();
  const compacting = compactingCollection();
  let smallest = v8.getHeapStatistics().total_heap_size;
  let idleInARow = 0;
  let load = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    idleInARow = performance.eventLoopUtilization(now, load).utilization < IDLE_UTILIZATION ? idleInARow + 1 : 0;
    load = now;
    const committed = v8.getHeapStatistics().total_heap_size;
    smallest = Math.min(smallest, committed);
    if (idleInARow < idleChecks || committed - smallest < growthBytes) return;
    const started = performance.now();
    // The compacting collection first: what it leaves in use is the live heap the other would walk.
    compacting();
    if (reducing && v8.getHeapStatistics().used_heap_size <= reducingUpToLiveBytes) reducing();
    const after = v8.getHeapStatistics().total_heap_size;
    options.collected?.(committed, after, performance.now() - started);
    // Collections that gave no pages back are not repeated until the heap grows again.
    smallest = after;
    idleInARow = 0;
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
