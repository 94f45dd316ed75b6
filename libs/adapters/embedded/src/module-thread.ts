/**
 * Worker threads running a TypeScript module of this package. In a process started by the launcher
 * (libs/launcher) the thread runs the module's bundle, built with the entry point's; anywhere else
 * (tsx, the test runner) it registers tsx's loader itself, as module hooks of the parent thread do
 * not reach worker threads.
 */
import { Worker } from 'node:worker_threads';
import { launchedWorker } from '@cairn/launcher';

/** A thread running `script` (an absolute path to a `*-worker.ts` module) with `workerData`. */
export function moduleThread(script: string, workerData: unknown): Worker {
  const bundle = launchedWorker(script);
  if (bundle) return new Worker(bundle, { workerData });
  const source = `require(require.resolve('tsx/cjs', { paths: [${JSON.stringify(__dirname)}] })); require(${JSON.stringify(script)});`;
  return new Worker(source, { eval: true, workerData });
}
