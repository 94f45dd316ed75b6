/** The checkpointer's thread (see checkpointer.ts): a PASSIVE checkpoint of each file in turn, every interval. */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { CLOSE_CHECKPOINTER, type CheckpointerData } from './checkpointer';

const { files, sync, intervalMs } = workerData as CheckpointerData;
const connections = files.map((file) => {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    // better-sqlite3's error class does not cross to the parent thread with its message.
    throw new Error(`the checkpointer cannot open ${file}: ${(err as Error).message}`);
  }
  // The log is synced before its pages overwrite the file's, as durably as the writers commit.
  db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  return db;
});

// A PASSIVE checkpoint never waits: while another connection's checkpoint runs it answers busy, and
// the next turn copies what that one left. An error ends the thread (see checkpointer.ts).
const timer = setInterval(() => {
  for (const db of connections) db.pragma('wal_checkpoint(PASSIVE)');
}, intervalMs);

parentPort!.on('message', (message: unknown) => {
  if (message !== CLOSE_CHECKPOINTER) return;
  clearInterval(timer);
  for (const db of connections) db.close();
  parentPort!.close();
});
