/** The ports a catalog process runs on, whichever backends provide them. */
import type { AspectReads, AspectStore, EventLog, GraphIndex, LogProducer, SearchIndex, SystemMetadataIndex, TimeseriesIndex } from '@cairn/ports';
import type { PipelineLogs, ProposalResult, Restater } from '@cairn/pipeline';

/** The pipeline's topics as their producers hold them. */
export type ProducerLogs = { readonly [K in keyof PipelineLogs]: LogProducer<PipelineLogs[K] extends EventLog<infer T> ? T : never> };

/**
 * What the API needs of the ports: the store's reads, the indexes, and the logs it appends to. The
 * embedded catalog's API thread holds these while its pipeline thread holds the ports themselves.
 */
export interface ApiPorts {
  readonly logs: ProducerLogs;
  readonly store: AspectReads;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Re-emits the store's latest rows as change logs, where the store and the change log are (a rebuild's reading and appending). */
  readonly restater: Restater;
  /** Named liveness probes of the backends, for /health. */
  readonly probes: Record<string, () => Promise<unknown>>;
}

export interface CatalogPorts extends ApiPorts {
  readonly logs: PipelineLogs;
  /** Outcomes of proposals, for synchronous writes made in another process. */
  readonly results: EventLog<ProposalResult>;
  readonly store: AspectStore;
  /** Which run wrote each aspect's latest value, where the backend keeps it apart (the search engine). */
  readonly systemMetadata?: SystemMetadataIndex;
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
