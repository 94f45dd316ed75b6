/** Read-side projections of the change log: search documents, graph edges, time-series documents. */

export type SearchFields = Record<string, unknown>;

export interface SearchIndex {
  /** Sets the given fields of an entity's document (null clears a field); creates the document. */
  upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void>;
  deleteDocument(entityType: string, urn: string): Promise<void>;
  getDocument(entityType: string, urn: string): Promise<SearchFields | undefined>;
  /** Removes every document (before a full rebuild). */
  clear(): Promise<void>;
  count(entityType?: string): Promise<number>;
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
  clear(): Promise<void>;
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
  readonly limit: number;
}

export interface TimeseriesIndex {
  /** Inserts or overwrites by identity (urn, timestampMillis, eventGranularity, partitionSpec, messageId). */
  upsert(doc: TimeseriesDocument): Promise<void>;
  /** Newest first. */
  query(query: TimeseriesQuery): Promise<TimeseriesDocument[]>;
  /** Deletes documents of a URN, optionally of one aspect and a time range; returns how many. */
  deleteByUrn(urn: string, range?: { aspect?: string; startTimeMillis?: number; endTimeMillis?: number }): Promise<number>;
  clear(): Promise<void>;
}
