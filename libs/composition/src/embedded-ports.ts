/**
 * Every port on embedded SQLite: what `npm start` runs on. The search index has a file of its own
 * (`search.db`), written by its writer thread; everything else is in `catalog.db`.
 */
import { join } from 'node:path';
import { createLogger, type Registry } from '@cairn/core';
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import {
  changeLogsBesideAspects,
  openDatabase,
  SqliteAspectStore,
  SqliteEventLog,
  SqliteGraphIndex,
  SqliteSearchIndex,
  SqliteTimeseriesIndex,
  startCheckpointer,
} from '@cairn/adapter-embedded';
import { PROPOSAL_RESULTS_TOPIC, StoreRestater, type ProposalResult } from '@cairn/pipeline';
import { searchSchemaOf } from '@cairn/search';
import { TOPIC_NAMES, type CatalogPorts } from './ports';

export interface EmbeddedOptions {
  readonly durability: 'normal' | 'full';
  /** Threads answering search queries beside the one that serves and writes (0: none). */
  readonly searchThreads: number;
}

/**
 * The pipeline thread's cache of the catalog file: 4 MB, not 16. Its group commits are small and
 * many, and each walked the whole cache (`DatabaseOptions.pageCacheKib`): 5% of the thread's CPU
 * in a 10k ingest. Alternating runs on the usual machine: 100k ingests at 2,603 and 2,701
 * proposals/s (559 and 545 µs a proposal) against 2,225 and 2,465/s (665 and 599 µs) with 16 MB,
 * memory settled 11 to 21 MB lower; 10k ingests faster in four pairs of five, and 10k batches,
 * snapshots and rebuilds no slower (docs/performance-log.md, the thirty-sixth session).
 */
const CATALOG_WRITER_PAGE_CACHE_KIB = 4096;

export function openEmbeddedPorts(dataDir: string, options: EmbeddedOptions, registry: Registry): CatalogPorts {
  const db = openDatabase(join(dataDir, 'catalog.db'), { sync: options.durability, pageCacheKib: CATALOG_WRITER_PAGE_CACHE_KIB });
  const store = new SqliteAspectStore(db);
  const searchDb = openDatabase(join(dataDir, 'search.db'), { sync: options.durability });
  const search = new SqliteSearchIndex(searchDb, searchSchemaOf(registry).mappings(), { readThreads: options.searchThreads, writerThread: true, movingFrom: db });
  const checkpointer = startCheckpointer([db.name, searchDb.name], {
    sync: options.durability,
    onStopped: (err) => createLogger('embedded').warn('checkpointer stopped; writers checkpoint their files themselves', { error: err.message }),
  });
  const versionedChangeLog = new SqliteEventLog<MetadataChangeLog>(db, TOPIC_NAMES.versionedChangeLog, changeLogsBesideAspects((urn, aspect) => store.latestMetadata(urn, aspect)));
  return {
    logs: {
      proposals: new SqliteEventLog<MetadataChangeProposal>(db, TOPIC_NAMES.proposals),
      failedProposals: new SqliteEventLog<FailedMetadataChangeProposal>(db, TOPIC_NAMES.failedProposals),
      versionedChangeLog,
      timeseriesChangeLog: new SqliteEventLog<MetadataChangeLog>(db, TOPIC_NAMES.timeseriesChangeLog),
    },
    restater: new StoreRestater(registry, store, versionedChangeLog),
    results: new SqliteEventLog<ProposalResult>(db, PROPOSAL_RESULTS_TOPIC),
    store,
    search,
    graph: new SqliteGraphIndex(db),
    timeseries: new SqliteTimeseriesIndex(db),
    probes: { embedded: async () => db.prepare('SELECT 1').get() && searchDb.prepare('SELECT 1').get() },
    close: async () => {
      await Promise.all([search.close(), checkpointer.close()]);
      searchDb.close();
      db.close();
    },
  };
}
