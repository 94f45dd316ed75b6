/**
 * The graph's writer thread (see graph-thread.ts): the only connection that writes the graph file.
 * Each request is answered once its transaction committed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbageWhenIdle } from '@cairn/core';
import { answer } from './call-thread';
import { openWriteConnection } from './database';
import type { GraphThreadData, GraphWriterRequest } from './graph-thread';
import { SqliteGraphIndex } from './sqlite-graph-index';
import { nameThread, THREAD_NAMES } from './thread-name';

nameThread(THREAD_NAMES.graphWriter);
collectGarbageWhenIdle();

const { file, sync } = workerData as GraphThreadData;
const db = openWriteConnection(file, { sync });
const graph = new SqliteGraphIndex(db);
const port = parentPort!;

function run(m: Exclude<GraphWriterRequest, { type: 'close' }>): void {
  switch (m.type) {
    case 'apply':
      return graph.apply(m.writes);
    case 'clear':
      return graph.removeAll();
    case 'clearForRebuild':
      return graph.removeAllForRebuild();
    case 'rebuilt':
      return graph.indexDestinations();
  }
}

port.on('message', (m: GraphWriterRequest) => {
  if (m.type === 'close') {
    db.close();
    port.close();
    return;
  }
  port.postMessage(answer(m.id, () => run(m)));
});
