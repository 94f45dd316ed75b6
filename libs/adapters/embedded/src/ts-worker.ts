/**
 * Worker threads running a TypeScript module, like the rest of the service: each registers tsx's
 * loader itself, as module hooks of the parent thread do not reach worker threads.
 */
import { Worker } from 'node:worker_threads';

/** A thread running `script` (an absolute path) with `workerData`. */
export function tsWorker(script: string, workerData: unknown): Worker {
  const source = `require(require.resolve('tsx/cjs', { paths: [${JSON.stringify(__dirname)}] })); require(${JSON.stringify(script)});`;
  return new Worker(source, { eval: true, workerData });
}
