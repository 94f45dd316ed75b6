/** The ports a catalog process runs on, whichever backends provide them. */
import type { AspectStore, EventLog, GraphIndex, SearchIndex, SystemMetadataIndex, TimeseriesIndex } from '@cairn/ports';
import type { PipelineLogs, ProposalResult } from '@cairn/pipeline';

export interface CatalogPorts {
  readonly logs: PipelineLogs;
  /** Outcomes of proposals, for synchronous writes made in another process. */
  readonly results: EventLog<ProposalResult>;
  readonly store: AspectStore;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Which run wrote each aspect's latest value, where the backend keeps it apart (the search engine). */
  readonly systemMetadata?: SystemMetadataIndex;
  /** Named liveness probes of the backends, for /health. */
  readonly probes: Record<string, () => Promise<unknown>>;
  close(): Promise<void>;
}

/** Consumer groups, named as the reference's services. */
export const PERSISTER_GROUP = 'mce-consumer';
export const SEARCH_GROUP = 'mae-consumer';
export const TIMESERIES_GROUP = 'timeseries-indexer';

export const TOPIC_NAMES = {
  proposals: 'MetadataChangeProposal_v1',
  failedProposals: 'FailedMetadataChangeProposal_v1',
  versionedChangeLog: 'MetadataChangeLog_Versioned_v1',
  timeseriesChangeLog: 'MetadataChangeLog_Timeseries_v1',
} as const;
