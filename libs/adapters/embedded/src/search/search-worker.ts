/**
 * A reader thread: its own read connection to the catalog file and its own copy of what readers
 * keep in memory, kept in step by the writer's messages. Messages arrive in the order they were
 * posted, so a query sees every change committed before it was asked.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbageWhenIdle } from '@cairn/core';
import type { SearchMappings } from '@cairn/ports';
import { openReadConnection } from '../database';
import { DocCatalog } from './doc-catalog';
import { DocValues } from './doc-values';
import { LocalReaderState } from './reader-state';
import { SearchReader } from './search-reader';
import { FieldRegistry } from './search-tables';
import { answer } from './call-thread';
import type { WorkerRequest } from './worker-messages';
import { nameThread, THREAD_NAMES } from '../thread-name';

nameThread(THREAD_NAMES.searchReader);
// A batch's garbage is given back once the thread is idle (@cairn/core).
collectGarbageWhenIdle();

const { file, mappings } = workerData as { file: string; mappings: SearchMappings };
const db = openReadConnection(file);
const fields = new FieldRegistry(db, mappings);
const catalog = new DocCatalog(db);
const docValues = new DocValues(db, fields);
const reader = new SearchReader(db, fields, catalog, docValues);
const state = new LocalReaderState(fields, catalog, docValues);
const port = parentPort!;

port.on('message', (m: WorkerRequest) => {
  switch (m.type) {
    case 'committed':
      state.committed(m.fields, m.updates);
      return;
    case 'cleared':
      state.cleared();
      return;
    case 'rowsMerged':
      state.rowsMerged();
      return;
    case 'call':
      port.postMessage(answer(m.id, () => (reader[m.method] as (...args: unknown[]) => unknown)(...m.args)));
      return;
    case 'close':
      db.close();
      port.close();
  }
});
