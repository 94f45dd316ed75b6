/**
 * The embedded catalog's pipeline thread: it owns the catalog's files and runs the persister and
 * both indexers on them, while the API thread serves HTTP, checks proposals and reads the store on
 * a read-only connection of its own. The API thread's appends and calls arrive as messages; the
 * replies and the settled proposals go back an event-loop turn at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbageWhenIdle, defaultRegistry, type Registry } from '@cairn/core';
import { nameThread, THREAD_NAMES } from '@cairn/adapter-embedded';
import type { MetadataChangeProposal } from '@cairn/events';
import type { EventLog } from '@cairn/ports';
import { createMetrics } from '@cairn/observability';
import { adoptCheckedProposal, type ProposalSettler } from '@cairn/pipeline';
import { openEmbeddedPorts } from '../embedded-ports';
import type { CatalogPorts } from '../ports';
import { EMBEDDED_SEARCH_BATCHING, startPersister, startSearchIndexer, startTimeseriesIndexer } from '../roles';
import { settledToWire, toWire, type AppendRequest, type CallTarget, type FromPipeline, type PipelineThreadData, type Reply, type ToPipeline, type WireSettled } from './messages';

nameThread(THREAD_NAMES.pipeline);
collectGarbageWhenIdle();

const port = parentPort!;
const post = (message: FromPipeline) => port.postMessage(message);

/**
 * Replies and settled proposals, posted together once the work that made them is done: after the
 * promises that a commit resolves have all run (a tick after the microtasks), not a turn of the
 * event loop later, which would first take the requests that arrived meanwhile.
 */
class Outgoing implements ProposalSettler {
  private replies: Reply[] = [];
  private settled: (readonly [string, WireSettled])[] = [];
  private scheduled = false;

  reply(reply: Reply): void {
    this.replies.push(reply);
    this.schedule();
  }

  settle(id: string, outcome: Parameters<ProposalSettler['settle']>[1]): void {
    this.settled.push([id, settledToWire(outcome)]);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    process.nextTick(() => {
      this.scheduled = false;
      post({ type: 'done', replies: this.replies, settled: this.settled });
      this.replies = [];
      this.settled = [];
    });
  }
}

function callTargets(ports: CatalogPorts, threadServices: object): Record<CallTarget, object> {
  return {
    search: ports.search,
    graph: ports.graph,
    timeseries: ports.timeseries,
    restater: ports.restater,
    probes: ports.probes,
    thread: threadServices,
    'log:proposals': ports.logs.proposals,
    'log:failedProposals': ports.logs.failedProposals,
    'log:versionedChangeLog': ports.logs.versionedChangeLog,
    'log:timeseriesChangeLog': ports.logs.timeseriesChangeLog,
  };
}

function append(registry: Registry, ports: CatalogPorts, request: AppendRequest): Promise<string[]> {
  // The records are of the topic's type: the API thread's producer of the topic typed them.
  const log: EventLog<unknown> = ports.logs[request.topic];
  if (request.checked) for (const r of request.records) adoptCheckedProposal(registry, r.value as MetadataChangeProposal);
  return log.append(request.records, request.reproducible ? { reproducible: true } : undefined);
}

function start(): void {
  const data = workerData as PipelineThreadData;
  const registry = defaultRegistry();
  let ports: CatalogPorts;
  try {
    ports = openEmbeddedPorts(data.dataDir, { durability: data.durability, searchThreads: data.searchThreads }, registry);
  } catch (err) {
    post({ type: 'failed', message: (err as Error).message });
    port.close();
    return;
  }
  // The process's own metrics are the API thread's to report.
  const metrics = createMetrics('standalone', { processMetrics: false });
  const outgoing = new Outgoing();
  const consumers = [
    startPersister(ports, registry, outgoing, metrics),
    startSearchIndexer(ports, registry, metrics, EMBEDDED_SEARCH_BATCHING),
    startTimeseriesIndexer(ports, registry, metrics),
  ];
  const targets = callTargets(ports, { metrics: () => metrics.registry.getMetricsAsJSON() });
  const answer = (id: number, work: () => Promise<unknown>) =>
    work().then(
      (result) => outgoing.reply({ id, result }),
      (err: unknown) => outgoing.reply({ id, error: toWire(err) }),
    );
  port.on('message', (m: ToPipeline) => {
    switch (m.type) {
      case 'append':
        void answer(m.id, async () => append(registry, ports, m));
        return;
      case 'call': {
        const target = targets[m.target] as Record<string, unknown> | undefined;
        const method = target?.[m.method];
        void answer(m.id, async () => {
          if (typeof method !== 'function') throw new Error(`the pipeline thread has no ${m.target}.${m.method}`);
          return method.apply(target, m.args);
        });
        return;
      }
      case 'close':
        void Promise.all(consumers.map((c) => c.stop()))
          .then(() => ports.close())
          .finally(() => port.close());
    }
  });
  post({ type: 'ready' });
}

start();
