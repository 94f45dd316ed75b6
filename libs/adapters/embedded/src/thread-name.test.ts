import { Worker } from 'node:worker_threads';
import { getPriority } from 'node:os';
import { BACKGROUND_NICENESS } from './thread-name';

/** Runs `runInBackground` in a thread of its own; answers that thread's nice value and the process's. */
function niceInThread(): Promise<{ thread: number; process: number }> {
  const source = `
    require(require.resolve('tsx/cjs', { paths: [${JSON.stringify(__dirname)}] }));
    const { readlinkSync } = require('node:fs');
    const { getPriority } = require('node:os');
    const { parentPort } = require('node:worker_threads');
    require(${JSON.stringify(`${__dirname}/thread-name.ts`)}).runInBackground();
    parentPort.postMessage(getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop())));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (thread: number) => resolve({ thread, process: getPriority(process.pid) }));
    worker.once('error', reject);
  });
}

describe('runInBackground', () => {
  it('lowers the priority of the calling thread only', async () => {
    const before = getPriority(process.pid);
    const { thread, process: after } = await niceInThread();
    expect(before).toBeLessThan(BACKGROUND_NICENESS);
    expect(thread).toBe(BACKGROUND_NICENESS);
    expect(after).toBe(before);
  });
});
