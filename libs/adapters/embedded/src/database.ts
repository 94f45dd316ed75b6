/** The embedded engine: one SQLite file (WAL) shared by every embedded adapter of a process. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type EmbeddedDb = Database.Database;

export interface DatabaseOptions {
  /**
   * `normal` survives a killed process (what the service promises by default); `full` also
   * survives power loss at the cost of an fsync per commit.
   */
  readonly sync?: 'normal' | 'full';
  /**
   * The writer's page cache in KiB, instead of the 16 MB every connection gets. While a file is
   * under 1 GiB, a commit after a B-tree balance walks the writer's whole page cache: the balance
   * renumbers a page through the lock-byte page's number (1 GiB in), past the file's end, and the
   * commit drops cached pages past the end by scanning every slot. A writer of many small commits
   * pays for its cache's size in each of them.
   */
  readonly pageCacheKib?: number;
}

export function openDatabase(file: string, options: DatabaseOptions = {}): EmbeddedDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const owner = file === ':memory:' ? undefined : holdOwnerLock(`${file}-owner`);
  let db: EmbeddedDb;
  try {
    db = new Database(file);
  } catch (err) {
    // A catalog that cannot be opened leaves the directory to whoever comes next.
    owner?.close();
    throw err;
  }
  if (owner) {
    // Closing the catalog gives the directory up.
    const close = db.close.bind(db);
    db.close = () => {
      close();
      owner.close();
      return db;
    };
  }
  applyWriterSettings(db, options);
  return db;
}

function applyWriterSettings(db: EmbeddedDb, options: DatabaseOptions): void {
  db.pragma('journal_mode = WAL');
  applySync(db, options);
  applyConnectionSettings(db);
  if (options.pageCacheKib !== undefined) db.pragma(`cache_size = -${options.pageCacheKib}`);
  // Under a steady ingest a writer logs thousands of pages a second: the checkpointer thread
  // (checkpointer.ts) copies them meanwhile but never quite catches up, so the log restarts only
  // when the writer's own checkpoint copies the rest and fsyncs the file, holding the writer up.
  // At 256 MB of log (rather than SQLite's 4) that happens a few times a minute: the search writer's
  // index lag p99 went from 1.4 s at 64 MB to 0.5 s, and the catalog's request latency p99 from 24
  // to 16 ms (docs/performance-log.md: run AI4; "Where the time goes", the tenth session).
  db.pragma('wal_autocheckpoint = 65536');
}

function applySync(db: EmbeddedDb, options: DatabaseOptions): void {
  db.pragma(`synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
}

/** How durable a connection's commits are, to open another writer of the file the same way. */
export function syncOf(db: EmbeddedDb): DatabaseOptions['sync'] {
  return db.pragma('synchronous', { simple: true }) === 2 ? 'full' : 'normal';
}

/**
 * The connection of a writer thread, to a file its process already owns (through `openDatabase`)
 * and that no other connection writes.
 */
export function openWriteConnection(file: string, options: DatabaseOptions): EmbeddedDb {
  const db = new Database(file, { fileMustExist: true });
  applyWriterSettings(db, options);
  return db;
}

/** 16 MB of pages: the OS caches the file anyway, and this cache counts in the process's memory. */
const CONNECTION_CACHE_KIB = 16384;

/** What every connection to the catalog file sets, the writer's and the reader threads'. */
function applyConnectionSettings(db: EmbeddedDb): void {
  db.pragma('busy_timeout = 2000');
  db.pragma(`cache_size = -${CONNECTION_CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
}

/**
 * One process owns the data directory: a second `npm start` on it fails fast instead of racing.
 * The catalog file itself stays shared, so the process's search reader threads can open it.
 */
function holdOwnerLock(file: string): EmbeddedDb {
  // No busy wait: an owner holds the lock for as long as it runs.
  const lock = new Database(file, { timeout: 0 });
  lock.pragma('locking_mode = EXCLUSIVE');
  try {
    // A write transaction takes the exclusive lock, which this locking mode keeps until closed.
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER); DELETE FROM owner;');
    lock.prepare('INSERT INTO owner (pid) VALUES (?)').run(process.pid);
  } catch (err) {
    lock.close();
    throw new Error(`${dirname(file)} is in use by another process (${(err as Error).message})`);
  }
  return lock;
}

/**
 * The checkpointer thread's connection to a file its process writes: it syncs the log before
 * copying it into the file as durably as the writers commit.
 */
export function openCheckpointConnection(file: string, options: DatabaseOptions): EmbeddedDb {
  const db = new Database(file, { fileMustExist: true });
  applySync(db, options);
  return db;
}

/** A read-only connection of a reader thread to a catalog file another connection writes. */
export function openReadConnection(file: string): EmbeddedDb {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('query_only = 1');
  applyConnectionSettings(db);
  return db;
}

/** SQLite's helper threads for one large sort (`withLargeSort`). */
const LARGE_SORT_THREADS = 2;
/**
 * The page cache while a large sort runs, in KiB. SQLite sorts runs of the cache's size in memory
 * before merging them: runs of 2 MB stay in the processor's caches. At 100k entities a rebuild's
 * merge of its deferred rows took 5.7 s with them against 7.2 to 7.6 s with the connection's 16 MB
 * (alone), 8.6 to 9.0 s against 10.2 to 10.4 s in a rebuild; the index of 763,984 edges by
 * destination 1.2 to 1.4 s against 1.6 to 2.2 s.
 */
const LARGE_SORT_CACHE_KIB = 2048;

/**
 * `work`, one large sort (rows merged into a B-tree in key order, an index built), with the sorter
 * set for it: helper threads sort runs of a small cache, and the runs spill to temporary files,
 * not memory (the connections keep temporary data in memory: at 100k entities the deferred rows'
 * merge held 450 MB more, and at a million it would hold gigabytes). The connection's settings are
 * back afterwards.
 */
export function withLargeSort<T>(db: EmbeddedDb, work: () => T): T {
  const saved = ['cache_size', 'threads', 'temp_store'].map((name) => [name, db.pragma(name, { simple: true }) as number] as const);
  db.pragma('temp_store = FILE');
  db.pragma(`threads = ${LARGE_SORT_THREADS}`);
  db.pragma(`cache_size = -${LARGE_SORT_CACHE_KIB}`);
  try {
    return work();
  } finally {
    for (const [name, value] of saved) db.pragma(`${name} = ${value}`);
  }
}
