/** Every port on one embedded SQLite file: what `npm start` runs on. */
import { join } from 'node:path';
import type { Registry } from '@cairn/core';
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import {
  openDatabase,
  SqliteAspectStore,
  SqliteEventLog,
  SqliteGraphIndex,
  SqliteSearchIndex,
  SqliteTimeseriesIndex,
} from '@cairn/adapter-embedded';
import { PROPOSAL_RESULTS_TOPIC, type ProposalResult } from '@cairn/pipeline';
import { searchSchemaOf } from '@cairn/search';
import { TOPIC_NAMES, type CatalogPorts } from './ports';

export function openEmbeddedPorts(dataDir: string, durability: 'normal' | 'full', registry: Registry): CatalogPorts {
  const db = openDatabase(join(dataDir, 'catalog.db'), { sync: durability });
  const store = new SqliteAspectStore(db);
  return {
    logs: {
      proposals: new SqliteEventLog<MetadataChangeProposal>(db, TOPIC_NAMES.proposals),
      failedProposals: new SqliteEventLog<FailedMetadataChangeProposal>(db, TOPIC_NAMES.failedProposals),
      versionedChangeLog: new SqliteEventLog<MetadataChangeLog>(db, TOPIC_NAMES.versionedChangeLog),
      timeseriesChangeLog: new SqliteEventLog<MetadataChangeLog>(db, TOPIC_NAMES.timeseriesChangeLog),
    },
    results: new SqliteEventLog<ProposalResult>(db, PROPOSAL_RESULTS_TOPIC),
    store,
    search: new SqliteSearchIndex(db, searchSchemaOf(registry).mappings()),
    graph: new SqliteGraphIndex(db),
    timeseries: new SqliteTimeseriesIndex(db),
    probes: { embedded: async () => db.prepare('SELECT 1').get() },
    close: async () => {
      db.close();
    },
  };
}
