/** The checkpointer's thread (see checkpointer.ts): a PASSIVE checkpoint of each file in turn, every interval. */
import { parentPort, workerData } from 'node:worker_threads';
import { CLOSE_CHECKPOINTER, type CheckpointerData } from './checkpointer';
import { openCheckpointConnection } from './database';
import { nameThread, THREAD_NAMES } from './thread-name';

nameThread(THREAD_NAMES.checkpointer);

const { files, sync, intervalMs } = workerData as CheckpointerData;
const connections = files.map((file) => {
  try {
    return openCheckpointConnection(file, { sync });
  } catch (err) {
    // better-sqlite3's error class does not cross to the parent thread with its message.
    throw new Error(`the checkpointer cannot open ${file}: ${(err as Error).message}`);
  }
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
