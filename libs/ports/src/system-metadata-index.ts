/** Which ingestion run wrote the latest value of each (urn, aspect): what rolling back a run looks up. */

export interface AspectRun {
  readonly urn: string;
  readonly aspect: string;
  readonly runId: string;
  /** `systemMetadata.lastObserved` of the write. */
  readonly lastObserved: number;
  readonly registryName?: string;
  readonly registryVersion?: string;
}

export interface SystemMetadataIndex {
  /** Records the run of an aspect's latest value, replacing the one recorded before. */
  record(run: AspectRun): Promise<void>;
  /** Forgets one aspect of a URN (deleted), or every aspect of it (entity deleted). */
  forget(urn: string, aspect?: string): Promise<void>;
  /** The aspects whose latest value a run wrote, by URN then aspect. */
  aspectsOfRun(runId: string, page: { start: number; count: number }): Promise<{ total: number; aspects: AspectRun[] }>;
  clear(): Promise<void>;
  /** Optional, for engines where a write is a round trip: collects writes to send together (see WriteBatch). */
  batch?(): SystemMetadataWriteBatch;
}

export interface SystemMetadataWriteBatch extends Pick<SystemMetadataIndex, 'record' | 'forget'> {
  flush(): Promise<void>;
}
