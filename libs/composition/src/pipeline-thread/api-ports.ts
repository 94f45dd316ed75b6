/**
 * The ports as the embedded catalog's API thread holds them: the store read on a read-only
 * connection of its own (entity reads answer without waiting for the pipeline thread), everything
 * else called on the pipeline thread, which owns the catalog's files.
 */
import { openReadConnection, SqliteAspectReads } from '@cairn/adapter-embedded';
import type { GraphIndex, LogProducer, SearchIndex, TimeseriesIndex } from '@cairn/ports';
import { wasCheckedHere, type Restater } from '@cairn/pipeline';
import type { MetadataChangeProposal } from '@cairn/events';
import { TOPIC_NAMES, type ApiPorts, type ProducerLogs } from '../ports';
import type { CallTarget, TopicKey } from './messages';
import type { PipelineThread } from './pipeline-thread';

type AsyncMethodOf<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

/** `T`'s methods that answer promises, each called on the pipeline thread; `methods` must name every one. */
function forwarded<T>(thread: PipelineThread, target: CallTarget, methods: Record<AsyncMethodOf<T>, true>): Pick<T, AsyncMethodOf<T>> {
  const out: Record<string, unknown> = {};
  for (const method of Object.keys(methods)) out[method] = (...args: unknown[]) => thread.call(target, method, args);
  return out as Pick<T, AsyncMethodOf<T>>;
}

function producer<T>(thread: PipelineThread, key: TopicKey): LogProducer<T> {
  const target: CallTarget = `log:${key}`;
  return {
    topic: TOPIC_NAMES[key],
    // Proposals this thread checked are taken as checked there, not checked again.
    append: (records, options) =>
      thread.append(key, records, { reproducible: options?.reproducible === true, checked: key === 'proposals' && records.every((r) => wasCheckedHere(r.value as MetadataChangeProposal)) }),
    lag: (group) => thread.call(target, 'lag', [group]),
    progress: (group) => thread.call(target, 'progress', [group]),
  };
}

export interface PipelineApiPorts extends ApiPorts {
  /** Closes this thread's connection (the pipeline thread closes the catalog). */
  close(): void;
}

/** `catalogFile`: the catalog the pipeline thread opened (and made the tables of). */
export function pipelineApiPorts(thread: PipelineThread, catalogFile: string): PipelineApiPorts {
  const db = openReadConnection(catalogFile);
  const logs: ProducerLogs = {
    proposals: producer(thread, 'proposals'),
    failedProposals: producer(thread, 'failedProposals'),
    versionedChangeLog: producer(thread, 'versionedChangeLog'),
    timeseriesChangeLog: producer(thread, 'timeseriesChangeLog'),
  };
  return {
    logs,
    store: new SqliteAspectReads(db),
    search: forwarded<SearchIndex>(thread, 'search', {
      upsertFields: true,
      deleteDocument: true,
      getDocument: true,
      clear: true,
      clearForRebuild: true,
      rebuilt: true,
      count: true,
      search: true,
      scroll: true,
      autocomplete: true,
      autocompleteEach: true,
      browse: true,
      browsePaths: true,
      countByType: true,
    }),
    graph: forwarded<GraphIndex>(thread, 'graph', { replaceEdges: true, removeNode: true, edges: true, references: true, clear: true, clearForRebuild: true, rebuilt: true }),
    timeseries: forwarded<TimeseriesIndex>(thread, 'timeseries', {
      upsert: true,
      query: true,
      deleteByUrn: true,
      aggregate: true,
      countOlderThan: true,
      startDeleteOlderThan: true,
      task: true,
      sizes: true,
      clear: true,
    }),
    // A rebuild's rows are read and re-emitted where they are; only its pacing is this thread's.
    restater: forwarded<Restater>(thread, 'restater', { count: true, restate: true, beginPass: true, restateNext: true, endPass: true }),
    probes: {
      embedded: async () => {
        db.prepare('SELECT 1').get();
        return thread.call('probes', 'embedded', []);
      },
    },
    close: () => db.close(),
  };
}
