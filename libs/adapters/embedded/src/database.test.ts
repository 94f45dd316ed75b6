import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, withLargeSort, type EmbeddedDb } from './database';

describe('openDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-open-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the writer the page cache its options ask for, else 16 MB', () => {
    const sized = openDatabase(join(dir, 'sized.db'), { pageCacheKib: 4096 });
    const plain = openDatabase(join(dir, 'plain.db'));
    try {
      expect(sized.pragma('cache_size', { simple: true })).toBe(-4096);
      expect(plain.pragma('cache_size', { simple: true })).toBe(-16384);
    } finally {
      sized.close();
      plain.close();
    }
  });
});

describe('withLargeSort', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-large-sort-'));
  let db: EmbeddedDb;
  let n = 0;
  beforeEach(() => {
    db = openDatabase(join(dir, `sort-${n++}.db`));
  });
  afterEach(() => db.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const settings = () => ({
    cacheSize: db.pragma('cache_size', { simple: true }),
    threads: db.pragma('threads', { simple: true }),
    tempStore: db.pragma('temp_store', { simple: true }),
  });

  it('sorts with helper threads, a small cache and temporary files, then gives the connection its settings back', () => {
    const before = settings();
    expect(before.tempStore).toBe(2);
    db.exec('CREATE TABLE t (k TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT hex(randomblob(16)) FROM n');
    const during = withLargeSort(db, () => {
      db.exec('CREATE INDEX t_k ON t (k)');
      return settings();
    });
    expect(during).toEqual({ cacheSize: -2048, threads: 2, tempStore: 1 });
    expect(settings()).toEqual(before);
    expect(db.prepare('SELECT COUNT(*) FROM t INDEXED BY t_k WHERE k > ?').pluck().get('')).toBe(2000);
  });

  it('gives the settings back when the work fails', () => {
    const before = settings();
    expect(() => withLargeSort(db, () => db.exec('CREATE INDEX broken ON missing_table (k)'))).toThrow(/missing_table/);
    expect(settings()).toEqual(before);
  });
});
