/**
 * A reader thread: its own read connection to the catalog file and its own copy of what readers
 * keep in memory, kept in step by the writer's messages. Messages arrive in the order they were
 * posted, so a query sees every change committed before it was asked.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RestliError } from '@cairn/core';
import type { SearchMappings } from '@cairn/ports';
import { openReadConnection } from '../database';
import { DocCatalog } from './doc-catalog';
import { DocValues } from './doc-values';
import { LocalReaderState } from './reader-state';
import { SearchReader } from './search-reader';
import { FieldRegistry } from './search-tables';
import type { WorkerReply, WorkerRequest } from './worker-messages';

const { file, mappings } = workerData as { file: string; mappings: SearchMappings };
const db = openReadConnection(file);
const fields = new FieldRegistry(db, mappings);
const catalog = new DocCatalog(db);
const docValues = new DocValues(db);
const reader = new SearchReader(db, fields, catalog, docValues);
const state = new LocalReaderState(fields, catalog, docValues);
const port = parentPort!;

function errorOf(err: unknown): WorkerReply['error'] {
  if (err instanceof RestliError) return { message: err.message, status: err.status, exceptionClass: err.exceptionClass };
  return { message: err instanceof Error ? err.message : String(err) };
}

port.on('message', (m: WorkerRequest) => {
  switch (m.type) {
    case 'committed':
      state.committed(m.fields, m.updates);
      return;
    case 'cleared':
      state.cleared();
      return;
    case 'call': {
      let reply: WorkerReply;
      try {
        reply = { id: m.id, result: (reader[m.method] as (...args: unknown[]) => unknown)(...m.args) };
      } catch (err) {
        reply = { id: m.id, error: errorOf(err) };
      }
      port.postMessage(reply);
      return;
    }
    case 'close':
      db.close();
      port.close();
  }
});
