import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type EmbeddedDb } from './database';
import { startCheckpointer } from './checkpointer';

const MB = 1024 * 1024;

/** Polls `done` until it holds or `ms` pass; whether it held. */
async function eventually(done: () => boolean, ms = 10_000): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) if (done()) return true;
  return done();
}

describe('startCheckpointer', () => {
  let dir: string;
  let db: EmbeddedDb;
  let file: string;
  const fileBytes = () => statSync(file).size;
  const write = (megabytes: number) =>
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO t (v) VALUES (randomblob(?))');
      for (let i = 0; i < megabytes * 16; i++) insert.run(64 * 1024);
    })();

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-checkpointer-'));
    file = join(dir, 'catalog.db');
    db = openDatabase(file);
    // Only the checkpointer copies the log into the file here.
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the file from its own thread, and stops when closed', async () => {
    write(4);
    expect(fileBytes()).toBeLessThan(MB);
    const checkpointer = startCheckpointer([file], { sync: 'normal', intervalMs: 20 });
    expect(await eventually(() => fileBytes() >= 4 * MB)).toBe(true);
    await checkpointer.close();

    const before = fileBytes();
    write(4);
    await new Promise((r) => setTimeout(r, 200));
    expect(fileBytes()).toBe(before);
  });

  it('tells when its thread stops unasked', async () => {
    const stopped = new Promise<Error>((resolve) => startCheckpointer([join(dir, 'missing.db')], { sync: 'normal', onStopped: resolve }));
    expect((await stopped).message).toMatch(/cannot open .*missing\.db/);
  });
});
