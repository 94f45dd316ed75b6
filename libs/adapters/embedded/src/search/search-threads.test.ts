import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { openDatabase } from '../database';
import { SqliteSearchIndex } from '../sqlite-search-index';
import { ReaderThreads } from './reader-threads';

describe('ReaderThreads', () => {
  it('answers an error instead of leaving a query waiting when its thread cannot run', async () => {
    const threads = new ReaderThreads(1, join(__dirname, 'no-such-directory', 'catalog.db'), new Map());
    try {
      const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };
      await expect(threads.countByType(selection)).rejects.toThrow();
      // While the failing thread waits to be started again, queries are refused at once.
      await expect(threads.countByType(selection)).rejects.toThrow(/restarting|stopped|directory/);
    } finally {
      await threads.close();
    }
  });
});

describe('ReaderThreads on a catalog file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-reader-threads-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a thread that stops, and the new one answers from what was committed', async () => {
    const db = openDatabase(join(dir, 'catalog.db'));
    const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1 });
    try {
      const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };
      await index.upsertFields('dataset', 'urn:li:dataset:a', { urn: 'urn:li:dataset:a', name: 'a' });
      expect(await index.countByType(selection)).toEqual({ dataset: 1 });
      // Failure injection: stop the thread under the index, as a crash would.
      const threads = (index as unknown as { threads: { threads: { worker: Worker }[] } }).threads.threads;
      const stopped = threads[0].worker;
      await stopped.terminate();
      await index.upsertFields('dataset', 'urn:li:dataset:b', { urn: 'urn:li:dataset:b', name: 'b' });
      await waitUntil(async () => threads[0].worker !== undefined && threads[0].worker !== stopped);
      expect(await index.countByType(selection)).toEqual({ dataset: 2 });
    } finally {
      await index.close();
      db.close();
    }
  });
});

describe('the writer thread on a search file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-writer-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };

  it('replaces a writer thread that stops; writes after it go through and readers learn them', async () => {
    const db = openDatabase(join(dir, 'restarted.db'));
    const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1, writerThread: true });
    try {
      await index.upsertFields('dataset', 'urn:li:dataset:a', { urn: 'urn:li:dataset:a', name: 'a' });
      // Failure injection: stop the writer thread, as a crash would.
      const thread = (index as unknown as { writes: { thread: { worker: Worker | undefined } } }).writes.thread;
      const stopped = thread.worker!;
      await stopped.terminate();
      await waitUntil(async () => thread.worker !== undefined && thread.worker !== stopped);
      await index.upsertFields('dataset', 'urn:li:dataset:b', { urn: 'urn:li:dataset:b', name: 'b' });
      expect(await index.countByType(selection)).toEqual({ dataset: 2 });
    } finally {
      await index.close();
      db.close();
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
