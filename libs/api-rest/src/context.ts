/** What the REST routes need: the model, the write use case and the read ports. */
import type { AuthServices } from '@cairn/auth';
import type { Registry } from '@cairn/core';
import type { AspectReads, GraphIndex, SearchIndex, TimeseriesIndex } from '@cairn/ports';
import type { IndexRestorer, IngestService } from '@cairn/pipeline';

export interface HealthReport {
  readonly healthy: boolean;
  readonly components: Record<string, { healthy: boolean; detail?: string }>;
}

export interface ServerInfo {
  readonly version: string;
  readonly commit: string;
  readonly serverType: string;
  /** Whether `ingestProposal` answers before the write is applied when the caller does not say. */
  readonly asyncIngestDefault: boolean;
  readonly maxBodyBytes: number;
  readonly exposeStackTraces: boolean;
}

export interface CatalogContext {
  readonly registry: Registry;
  readonly ingest: IngestService;
  readonly store: AspectReads;
  readonly search: SearchIndex;
  readonly graph: GraphIndex;
  readonly timeseries: TimeseriesIndex;
  /** Re-emits stored aspects to the change log so the indexes are rebuilt from the store. */
  readonly indexRestorer: IndexRestorer;
  readonly info: ServerInfo;
  /** Tokens, accounts, policies and the authorizer (also present while authentication is disabled). */
  readonly auth?: AuthServices;
  health(): Promise<HealthReport>;
}
