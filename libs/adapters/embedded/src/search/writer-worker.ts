/**
 * The search engine's writer thread: the only connection that writes the search file. Each `apply`
 * is one transaction; its reply tells the caller what readers' memory must learn. A `clear` copies
 * an empty file over the search file; requests that arrive meanwhile wait for it, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchMappings } from '@cairn/ports';
import { openWriteConnection, type DatabaseOptions } from '../database';
import { answer } from './call-thread';
import { DocumentWriter } from './document-writer';
import { replaceWithEmpty } from './empty-file';
import type { MemoryUpdate } from './reader-state';
import { FieldRegistry, type NewField } from './search-tables';
import type { WriterCommitted, WriterRequest } from './worker-messages';

const { file, mappings, sync } = workerData as { file: string; mappings: SearchMappings; sync: DatabaseOptions['sync'] };
const db = openWriteConnection(file, { sync });
let committed: { fields: NewField[]; updates: MemoryUpdate[] } = { fields: [], updates: [] };
const writer = new DocumentWriter(db, new FieldRegistry(db, mappings), {
  // A batch of thousands of documents: concatenated, not spread into arguments.
  committed: (fields, updates) => {
    committed = { fields: committed.fields.concat(fields), updates: committed.updates.concat(updates) };
  },
  // The caller tells readers once its `clear` is answered.
  cleared: () => undefined,
});
const port = parentPort!;

function taken(): WriterCommitted {
  const out = committed;
  committed = { fields: [], updates: [] };
  return out;
}

/** Requests that arrived while the file was being emptied. */
let waiting: WriterRequest[] | undefined;

function receive(m: WriterRequest): void {
  if (waiting) {
    waiting.push(m);
    return;
  }
  switch (m.type) {
    case 'apply':
      // A write that fails rolls back before it reports anything committed.
      port.postMessage(
        answer(m.id, () => {
          writer.applyAll(m.writes);
          return taken();
        }),
      );
      return;
    case 'clear':
      waiting = [];
      replaceWithEmpty(db, file).then(
        () => cleared(m.id),
        (err: unknown) => cleared(m.id, err),
      );
      return;
    case 'close':
      db.close();
      port.close();
  }
}

function cleared(id: number, err?: unknown): void {
  port.postMessage(
    answer(id, () => {
      if (err !== undefined) throw err;
    }),
  );
  const next = waiting ?? [];
  waiting = undefined;
  for (const m of next) receive(m);
}

port.on('message', receive);
