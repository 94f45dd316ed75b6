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
}

export function openDatabase(file: string, options: DatabaseOptions = {}): EmbeddedDb {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
  // One process owns the data directory: a second `npm start` on it fails fast instead of racing.
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('busy_timeout = 2000');
  // 16 MB of pages: the OS caches the file anyway, and this cache counts in the process's memory.
  db.pragma('cache_size = -16384');
  // Checkpoints copy the log into the database file and fsync it, blocking the one thread that
  // serves everything; a longer log (64 MB rather than 4) means far fewer of them.
  db.pragma('wal_autocheckpoint = 16384');
  db.pragma('temp_store = MEMORY');
  return db;
}
