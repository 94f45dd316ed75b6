import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { SearchMappings } from '@cairn/ports';
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

describe('a batch sent to the writer thread in parts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-writer-parts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };
  const urn = (i: number) => `urn:li:dataset:d${i}`;
  let n = 0;

  async function withIndex(work: (index: SqliteSearchIndex) => Promise<void>): Promise<void> {
    const db = openDatabase(join(dir, `parts-${n++}.db`));
    const index = new SqliteSearchIndex(db, new Map(), { readThreads: 1, writerThread: true });
    try {
      await work(index);
    } finally {
      await index.close();
      db.close();
    }
  }

  async function upsert(batch: ReturnType<SqliteSearchIndex['batch']>, from: number, count: number): Promise<void> {
    for (let i = from; i < from + count; i++) await batch.upsertFields('dataset', urn(i), { urn: urn(i), name: `d${i}` });
  }

  /** After a failed batch none of it is searchable, and the batch applied again goes through. */
  async function expectNothingThenAppliedAgain(index: SqliteSearchIndex, count: number): Promise<void> {
    expect(await index.countByType(selection)).toEqual({ dataset: 0 });
    const again = index.batch();
    await upsert(again, 0, count);
    await again.flush();
    expect(await index.countByType(selection)).toEqual({ dataset: count });
  }

  it('commits every part together: nothing of the batch is searchable before its flush', async () => {
    await withIndex(async (index) => {
      const batch = index.batch();
      await upsert(batch, 0, 1200);
      await new Promise((r) => setTimeout(r, 100));
      expect(await index.countByType(selection)).toEqual({ dataset: 0 });
      await batch.flush();
      expect(await index.countByType(selection)).toEqual({ dataset: 1200 });
    });
  });

  it('rolls the whole batch back when one part fails, parts already applied included', async () => {
    await withIndex(async (index) => {
      const batch = index.batch();
      await upsert(batch, 0, 600);
      // A value the writer cannot serialize: the second part fails inside the writer thread.
      await batch.upsertFields('dataset', urn(600), { urn: urn(600), size: 1n } as never);
      await upsert(batch, 601, 499);
      await expect(batch.flush()).rejects.toThrow(/BigInt/);
      await expectNothingThenAppliedAgain(index, 10);
    });
  });

  it('fails the batch when the writer restarted between its parts, and the batch applied again goes through', async () => {
    await withIndex(async (index) => {
      const thread = (index as unknown as { writes: { thread: { worker: Worker | undefined } } }).writes.thread;
      const batch = index.batch();
      await upsert(batch, 0, 600);
      // Failure injection: the thread stops with the first part in its open transaction.
      const stopped = thread.worker!;
      await stopped.terminate();
      await waitUntil(async () => thread.worker !== undefined && thread.worker !== stopped);
      await upsert(batch, 600, 100);
      await expect(batch.flush()).rejects.toThrow(/lost/);
      await expectNothingThenAppliedAgain(index, 700);
    });
  });

  it('runs a clear sent while a batch is open after the batch commits, not inside it', async () => {
    await withIndex(async (index) => {
      const batch = index.batch();
      await upsert(batch, 0, 600);
      const cleared = index.clear();
      await upsert(batch, 600, 100);
      await batch.flush();
      await cleared;
      expect(await index.countByType(selection)).toEqual({ dataset: 0 });
      await index.upsertFields('dataset', urn(1), { urn: urn(1), name: 'after' });
      expect(await index.countByType(selection)).toEqual({ dataset: 1 });
    });
  });

  it('gives up a batch that was never committed once the next batch starts', async () => {
    await withIndex(async (index) => {
      const abandoned = index.batch();
      await upsert(abandoned, 0, 600);
      const next = index.batch();
      await upsert(next, 1000, 3);
      await next.flush();
      expect(await index.countByType(selection)).toEqual({ dataset: 3 });
    });
  });
});

describe('clearing the search file on the writer thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-writer-clear-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fields = new Map([
    ['name', { type: 'WORD_GRAM' as const, autocomplete: true }],
    ['platform', { type: 'URN' as const, autocomplete: false }],
  ]);
  const mappings: SearchMappings = new Map([
    ['dataset', fields],
    ['chart', fields],
  ]);
  const all = { entityTypes: ['dataset', 'chart'], filter: [], includeRemoved: false };
  const doc = (i: number) => ({ urn: `urn:li:dataset:d${i}`, name: `daily revenue ${i}`, platform: `urn:li:dataPlatform:p${i % 3}` });
  const suggest = (index: SqliteSearchIndex, type: string, text: string) =>
    index.autocomplete({ entityTypes: [type], filter: [], includeRemoved: false, text, fields: [{ field: 'name', boost: 1 }], limit: 10 });
  const onPlatform = (index: SqliteSearchIndex, platform: string) =>
    index.search({ ...all, terms: [], rankFields: [], facets: [], filter: [[{ fields: ['platform'], condition: 'EQUAL', values: [platform], negated: false }]] }, { from: 0, size: 10 });

  it('empties the file and gives back its space; field ids, autocomplete indexes and filters keep working', async () => {
    const file = join(dir, 'cleared.db');
    const db = openDatabase(file);
    const index = new SqliteSearchIndex(db, mappings, { readThreads: 1, writerThread: true });
    try {
      const batch = index.batch();
      for (let i = 0; i < 3000; i++) await batch.upsertFields('dataset', `urn:li:dataset:d${i}`, doc(i));
      await batch.upsertFields('chart', 'urn:li:chart:c', { urn: 'urn:li:chart:c', name: 'weekly sales' });
      await batch.flush();
      db.pragma('wal_checkpoint(TRUNCATE)');
      const full = statSync(file).size;
      expect((await suggest(index, 'dataset', 'reven')).urns.length).toBeGreaterThan(0);

      await index.clear();
      expect(await index.countByType(all)).toEqual({ dataset: 0, chart: 0 });
      expect((await suggest(index, 'dataset', 'reven')).urns).toEqual([]);
      expect((await onPlatform(index, 'urn:li:dataPlatform:p1')).total).toBe(0);
      db.pragma('wal_checkpoint(TRUNCATE)');
      expect(statSync(file).size).toBeLessThan(full / 10);

      // The index fills again through the same fields and word indexes.
      await index.upsertFields('dataset', 'urn:li:dataset:d1', doc(1));
      await index.upsertFields('chart', 'urn:li:chart:c', { urn: 'urn:li:chart:c', name: 'weekly sales' });
      expect((await suggest(index, 'dataset', 'reven')).urns).toEqual(['urn:li:dataset:d1']);
      expect((await suggest(index, 'chart', 'sal')).urns).toEqual(['urn:li:chart:c']);
      expect((await onPlatform(index, 'urn:li:dataPlatform:p1')).hits.map((h) => h.urn)).toEqual(['urn:li:dataset:d1']);
    } finally {
      await index.close();
      db.close();
    }
    // A file emptied this way opens again as any other.
    const reopened = openDatabase(file);
    const again = new SqliteSearchIndex(reopened, mappings, { readThreads: 1, writerThread: true });
    try {
      expect(await again.countByType(all)).toEqual({ dataset: 1, chart: 1 });
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await again.close();
      reopened.close();
    }
  });

  it('applies writes sent while the file is being emptied after it, in the order sent', async () => {
    const db = openDatabase(join(dir, 'ordered.db'));
    const index = new SqliteSearchIndex(db, mappings, { readThreads: 1, writerThread: true });
    try {
      await index.upsertFields('dataset', 'urn:li:dataset:d0', doc(0));
      const cleared = index.clear();
      const written = index.upsertFields('dataset', 'urn:li:dataset:d1', doc(1));
      await Promise.all([cleared, written]);
      expect((await index.search({ ...all, terms: [], rankFields: [], facets: [] }, { from: 0, size: 10 })).hits.map((h) => h.urn)).toEqual(['urn:li:dataset:d1']);
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
