/**
 * The search engine's writer thread: the only connection that writes the search file. Each `apply`
 * is one transaction (a batch's may have arrived in `part`s before it); its reply tells the caller
 * what readers' memory must learn. A `clear` copies an empty file over the search file; requests
 * that arrive meanwhile wait for it, in order. A `merge` writes a rebuild's deferred rows.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbageWhenIdle } from '@cairn/core';
import type { SearchMappings } from '@cairn/ports';
import { openWriteConnection, type DatabaseOptions } from '../database';
import { answer } from './call-thread';
import { LoopBusy } from './loop-busy';
import { DocumentWriter } from './document-writer';
import { replaceWithEmpty } from './empty-file';
import type { MemoryUpdate } from './reader-state';
import { FieldRegistry, type NewField } from './search-tables';
import type { WriterCommitted, WriterRequest } from './worker-messages';
import { nameThread, THREAD_NAMES } from '../thread-name';

nameThread(THREAD_NAMES.searchWriter);
// A batch's garbage is given back once the thread is idle (@cairn/core).
collectGarbageWhenIdle();

const { file, mappings, sync } = workerData as { file: string; mappings: SearchMappings; sync: DatabaseOptions['sync'] };
const db = openWriteConnection(file, { sync });
let committed: { fields: NewField[]; updates: MemoryUpdate[] } = { fields: [], updates: [] };
const fields = new FieldRegistry(db, mappings);
const writer = new DocumentWriter(db, fields, {
  // A batch of thousands of documents: concatenated, not spread into arguments. The writer hands
  // its updates as objects; they become text when answered (`taken`).
  committed: (fields: readonly NewField[], updates: readonly MemoryUpdate[]) => {
    committed = { fields: committed.fields.concat(fields), updates: committed.updates.concat(updates) };
  },
  // The caller tells readers once its `clear` or `merge` is answered.
  cleared: () => undefined,
  rowsMerged: () => undefined,
});
const port = parentPort!;

const loop = new LoopBusy();

function taken(): WriterCommitted {
  const out = committed;
  committed = { fields: [], updates: [] };
  return { fields: out.fields, updates: out.updates.length > 0 ? JSON.stringify(out.updates) : [], busy: loop.next() };
}

/** The batch whose parts are applied in the open transaction: how many arrived, and the first failure. */
let open: { id: number; parts: number; failed?: unknown } | undefined;
/** While the file is being emptied, every request; while a batch is open, requests of no batch. Run once that ends, in order. */
let held: WriterRequest[] = [];
let clearing = false;

function batchOf(m: WriterRequest): number | undefined {
  return m.type === 'part' ? m.batch : m.type === 'apply' ? m.batch?.id : undefined;
}

function receive(m: WriterRequest): void {
  const batch = batchOf(m);
  if (clearing || (open && batch === undefined && m.type !== 'close')) {
    held.push(m);
    return;
  }
  // Another batch's request, or `close`: the open batch was given up (its caller failed before
  // committing it, or the thread is stopping) and is rolled back.
  if (open && batch !== open.id) {
    writer.rollbackOpen();
    ended();
  }
  switch (m.type) {
    case 'part':
      part(m);
      return;
    case 'apply':
      if (m.batch) {
        const b = m.batch;
        // A write that fails rolls back before it reports anything committed.
        port.postMessage(answer(m.id, () => finish(m, b)));
        ended();
      } else {
        port.postMessage(
          answer(m.id, () => {
            writer.applyAll(m.writes);
            return taken();
          }),
        );
      }
      return;
    case 'clear':
      clearing = true;
      replaceWithEmpty(db, file, m.deferRows, fields).then(
        () => cleared(m.id),
        (err: unknown) => cleared(m.id, err),
      );
      return;
    case 'merge':
      port.postMessage(answer(m.id, () => writer.mergeDeferredRows()));
      return;
    case 'close':
      db.close();
      port.close();
  }
}

function part(m: WriterRequest & { type: 'part' }): void {
  open ??= { id: m.batch, parts: 0 };
  open.parts++;
  if (open.failed !== undefined) return;
  try {
    writer.openPart(m.writes);
  } catch (err) {
    open.failed = err;
  }
}

/** The last part of a batch: commits it, unless a part failed or was lost. */
function finish(m: WriterRequest & { type: 'apply' }, batch: { id: number; parts: number }): WriterCommitted {
  const failed = open?.failed;
  const arrived = open?.parts ?? 0;
  if (failed !== undefined) throw failed;
  if (arrived !== batch.parts) {
    writer.rollbackOpen();
    throw new Error(`${batch.parts - arrived} of the batch's parts were lost (the search writer restarted); the batch is applied again`);
  }
  writer.commitOpen(m.writes);
  return taken();
}

/** The open batch committed or was given up: what waited for it runs. */
function ended(): void {
  open = undefined;
  release();
}

function cleared(id: number, err?: unknown): void {
  port.postMessage(
    answer(id, () => {
      if (err !== undefined) throw err;
      writer.reopened();
    }),
  );
  clearing = false;
  release();
}

function release(): void {
  const waiting = held;
  held = [];
  for (const m of waiting) receive(m);
}

port.on('message', receive);
