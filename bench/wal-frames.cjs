/**
 * Diagnostic preload: counts the WAL frames (pages) each SQLite commit of the process appends, by
 * the first caller outside better-sqlite3, and writes the totals of each thread to
 * `$WAL_FRAMES_DIR/wal-frames-<pid>-<thread>.txt` every 20 s and at exit. Usage:
 *   NODE_OPTIONS="--require ./bench/wal-frames.cjs" npm run bench -- --entities 10000 --scenarios ingest
 * A commit's frames are the growth of the log's frame count (`mxFrame`, read from the `-shm` file)
 * across it; a log restarted by a checkpoint meanwhile counts from zero. It slows what it measures.
 */
'use strict';
const Database = require('better-sqlite3');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { threadId } = require('node:worker_threads');

const outDir = process.env.WAL_FRAMES_DIR || os.tmpdir();
/** By "file caller": frames and commits. */
const totals = new Map();
const word = Buffer.alloc(4);
const shmFiles = new WeakMap();

/** The log's frame count, or -1 for a database without a WAL index. */
function frameCount(db) {
  if (db.memory || db.readonly) return -1;
  let fd = shmFiles.get(db);
  if (fd === undefined) {
    try {
      fd = fs.openSync(`${db.name}-shm`, 'r');
    } catch {
      return -1; // not in WAL mode yet: tried again next time
    }
    shmFiles.set(db, fd);
  }
  // The WAL-index header's mxFrame: a native-endian u32 at offset 16.
  fs.readSync(fd, word, 0, 4, 16);
  return os.endianness() === 'LE' ? word.readUInt32LE(0) : word.readUInt32BE(0);
}

function caller() {
  const frames = new Error().stack.split('\n').slice(2);
  const frame = frames.find((f) => !f.includes('better-sqlite3') && !f.includes('wal-frames.cjs')) || '?';
  return frame.trim().replace(/^at /, '').replace(/\(.*?\/((libs|services|bench|test)\/)/, '($1').replace(/:\d+\)$/, ')');
}

function count(db, frames) {
  const key = `${path.basename(db.name)} ${caller()}`;
  const total = totals.get(key) || { frames: 0, commits: 0 };
  total.frames += frames;
  total.commits += 1;
  totals.set(key, total);
}

const begun = new WeakMap();
/** Wraps a method that may begin, commit or autocommit a transaction. */
function measure(proto, name) {
  const original = proto[name];
  proto[name] = function (...args) {
    const db = this.database || this;
    const wasOpen = db.inTransaction;
    const before = wasOpen ? -1 : frameCount(db);
    const result = original.apply(this, args);
    const isOpen = db.inTransaction;
    if (!wasOpen && isOpen) begun.set(db, before);
    else if (wasOpen && !isOpen) {
      const after = frameCount(db);
      const start = begun.get(db) ?? -1;
      if (after >= 0 && start >= 0) count(db, after >= start ? after - start : after);
    } else if (!wasOpen && before >= 0) {
      const after = frameCount(db);
      if (after !== before) count(db, after > before ? after - before : after);
    }
    return result;
  };
}

const scratch = new Database(':memory:');
measure(Object.getPrototypeOf(scratch.prepare('SELECT 1')), 'run');
measure(Database.prototype, 'exec');
scratch.close();

function write() {
  if (totals.size === 0) return;
  const lines = [...totals]
    .sort((a, b) => b[1].frames - a[1].frames)
    .map(([key, t]) => `${String(t.frames).padStart(10)} frames ${String(t.commits).padStart(9)} commits  ${key}`);
  fs.writeFileSync(path.join(outDir, `wal-frames-${process.pid}-${threadId}.txt`), `${lines.join('\n')}\n`);
}
setInterval(write, 20_000).unref();
process.on('exit', write);
