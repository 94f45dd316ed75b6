/** Read-side projections of the change log: search documents, graph edges, time-series documents. */
import type {
  AutocompleteQuery,
  AutocompleteResult,
  BrowseQuery,
  BrowseResult,
  DocumentSelection,
  FilterPlan,
  ScrollResult,
  SearchQuery,
  SearchResult,
} from './search-query';

export type SearchFields = Record<string, unknown>;

/**
 * Writes an index collects to send together (one round trip for a batch of change logs instead
 * of one per write). Nothing is applied before `flush`, which applies every write in call order.
 */
export interface WriteBatch {
  flush(): Promise<void>;
}

export interface SearchWriteBatch extends Pick<SearchIndex, 'upsertFields' | 'deleteDocument'>, WriteBatch {}
export interface GraphWriteBatch extends Pick<GraphIndex, 'replaceEdges' | 'removeNode'>, WriteBatch {}
export interface TimeseriesWriteBatch extends Pick<TimeseriesIndex, 'upsert'>, WriteBatch {}

/** Paging at most this deep (from + size); deeper pages are reached by scrolling. */
export const MAX_RESULT_WINDOW = 10_000;

export interface SearchIndex {
  /** Sets the given fields of an entity's document (null clears a field); creates the document. */
  upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void>;
  deleteDocument(entityType: string, urn: string): Promise<void>;
  getDocument(entityType: string, urn: string): Promise<SearchFields | undefined>;
  /** Removes every document. */
  clear(): Promise<void>;
  /**
   * Removes every document before a full rebuild, which ends with `rebuilt`. Meanwhile an engine may
   * defer the parts of its index that cost less built once over every document: queries then find
   * the rebuilt documents by their words, and filters, facets, sorting, browsing and `field:value`
   * matches may miss them until `rebuilt` has built those parts.
   */
  clearForRebuild(): Promise<void>;
  /** The full rebuild's documents are written (or it stopped): what was deferred is built now. */
  rebuilt(): Promise<void>;
  /** Every document, soft-deleted ones included. */
  count(entityType?: string): Promise<number>;

  /** A ranked page (from + size at most MAX_RESULT_WINDOW), the total and the facets of every match. */
  search(query: SearchQuery, page: { from: number; size: number }): Promise<SearchResult>;
  /** The page after `scrollId` (none: the first), at any depth; `keepAlive` is e.g. `5m`. */
  scroll(query: SearchQuery, page: { scrollId?: string; keepAlive: string; size: number }): Promise<ScrollResult>;
  autocomplete(query: AutocompleteQuery): Promise<AutocompleteResult>;
  /** Several autocompletes (one per entity type, as `autoCompleteForMultiple` asks), answered together, in order. */
  autocompleteEach(queries: readonly AutocompleteQuery[]): Promise<AutocompleteResult[]>;
  browse(query: BrowseQuery): Promise<BrowseResult>;
  /** The browse paths of a document; none when it has none or does not exist. */
  browsePaths(entityType: string, urn: string): Promise<string[]>;
  /** How many documents each entity type of the selection has. */
  countByType(selection: DocumentSelection): Promise<Record<string, number>>;
  /** Optional, for engines where a write is a round trip: collects writes to send together. */
  batch?(): SearchWriteBatch;
}

export interface Edge {
  readonly source: string;
  readonly destination: string;
  readonly relationshipType: string;
  readonly createdOn?: number;
  readonly createdActor?: string;
}

export interface GraphIndex {
  /** Replaces the edges an aspect of `source` declares. */
  replaceEdges(source: string, viaAspect: string, edges: readonly Edge[]): Promise<void>;
  /** Removes every edge from or to the URN. */
  removeNode(urn: string): Promise<void>;
  edges(query: { urn: string; direction: 'INCOMING' | 'OUTGOING'; types?: readonly string[]; start: number; count: number }): Promise<{ total: number; edges: Edge[] }>;
  /** Edges into the URN with the source aspect that declares each, by (source, aspect, type). */
  references(urn: string, page: { start: number; count: number }): Promise<{ total: number; references: Reference[] }>;
  clear(): Promise<void>;
  /**
   * Removes every edge before a full rebuild, which ends with `rebuilt`. Meanwhile an engine may
   * defer its lookup of edges by destination: incoming edges and references are still answered,
   * more slowly, until `rebuilt` has built it.
   */
  clearForRebuild(): Promise<void>;
  /** The full rebuild's edges are written (or it stopped): what was deferred is built now. */
  rebuilt(): Promise<void>;
  /** Optional, for engines where a write is a round trip: collects writes to send together. */
  batch?(): GraphWriteBatch;
}

export interface Reference {
  readonly source: string;
  readonly aspect: string;
  readonly relationshipType: string;
}

export interface TimeseriesDocument {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn: string;
  readonly timestampMillis: number;
  readonly eventGranularity?: string;
  readonly partitionSpec?: string;
  readonly messageId?: string;
  /** The full aspect value as JSON text. */
  readonly event: string;
  readonly systemMetadata?: string;
}

export interface TimeseriesQuery {
  readonly entityType: string;
  readonly aspect: string;
  readonly urn?: string;
  readonly startTimeMillis?: number;
  readonly endTimeMillis?: number;
  /**
   * Over the time-series fields (dotted paths into the event, e.g. `partitionSpec.partition`) and
   * `urn`, `timestampMillis`, `messageId`, `runId` (of the system metadata).
   */
  readonly filter?: FilterPlan;
  readonly limit: number;
}

/** A date bucket (by calendar unit) or a string bucket (one per value; inside arrays, per element). */
export type GroupingBucket =
  | { readonly kind: 'date'; readonly field: string; readonly unit: 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'YEAR'; readonly multiple: number }
  | { readonly kind: 'string'; readonly field: string };

export interface AggregationSpec {
  readonly type: 'LATEST' | 'SUM' | 'CARDINALITY';
  /** A dotted path into the event; inside the array a string bucket explodes, per element. */
  readonly field: string;
}

/** The reference's aggregated stats request: `filter` selects events, rows group by the buckets. */
export interface TimeseriesAggregation {
  readonly entityType: string;
  readonly aspect: string;
  readonly filter: FilterPlan;
  readonly buckets: readonly GroupingBucket[];
  readonly metrics: readonly AggregationSpec[];
}

/**
 * Columns are the bucket fields, then `<type>_<field>` per metric; cells are strings, `NULL` when
 * missing (a date bucket's key is its start in epoch millis, UTC). Rows are sorted by their keys.
 */
export interface GenericTable {
  readonly columnNames: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export interface IndexTask {
  readonly taskId: string;
  readonly completed: boolean;
  /** Engine-specific progress (e.g. `{total, deleted}`), as JSON. */
  readonly status: Record<string, unknown>;
  readonly runTimeNanos: number;
}

export interface IndexSize {
  readonly indexName: string;
  readonly entityName: string;
  readonly aspectName: string;
  readonly sizeMb: number;
}

export interface TimeseriesIndex {
  /** Inserts or overwrites by identity (urn, timestampMillis, eventGranularity, partitionSpec, messageId). */
  upsert(doc: TimeseriesDocument): Promise<void>;
  /** Newest first. */
  query(query: TimeseriesQuery): Promise<TimeseriesDocument[]>;
  /** Deletes documents of a URN, optionally of one aspect and a time range; returns how many. */
  deleteByUrn(urn: string, range?: { aspect?: string; startTimeMillis?: number; endTimeMillis?: number }): Promise<number>;
  aggregate(request: TimeseriesAggregation): Promise<GenericTable>;
  /** How many documents of the aspect are older than `endTimeMillis`, out of how many. */
  countOlderThan(entityType: string, aspect: string, endTimeMillis: number): Promise<{ matching: number; total: number }>;
  /**
   * Starts deleting the documents older than `endTimeMillis` in batches of `batchSize`; answers the
   * task id `<node>:<number>`. `timeoutSeconds` (none when absent or 0; fractions allowed) bounds the
   * whole deletion: once it has run that long it stops, keeping what it deleted. The task's status
   * has at least `{total, deleted, batches, timed_out}`: `batches` counts non-empty batches,
   * `timed_out` says it stopped at the timeout.
   */
  startDeleteOlderThan(entityType: string, aspect: string, endTimeMillis: number, options: { batchSize: number; timeoutSeconds?: number }): Promise<string>;
  /** A task this index started; undefined when unknown. */
  task(taskId: string): Promise<IndexTask | undefined>;
  /** One entry per (entity type, aspect) index holding documents. */
  sizes(): Promise<IndexSize[]>;
  clear(): Promise<void>;
  /** Optional, for engines where a write is a round trip: collects writes to send together. */
  batch?(): TimeseriesWriteBatch;
}
