/** The topics the pipeline moves events through. */
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import type { EventLog, LogRecord } from '@cairn/ports';

export interface PipelineLogs {
  readonly proposals: EventLog<MetadataChangeProposal>;
  readonly failedProposals: EventLog<FailedMetadataChangeProposal>;
  readonly versionedChangeLog: EventLog<MetadataChangeLog>;
  readonly timeseriesChangeLog: EventLog<MetadataChangeLog>;
}

/** Header carrying the URN of the actor who made a proposal; the catalog's ingest sets it on every proposal it appends. */
export const ACTOR_HEADER = 'actor';
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/**
 * Whether a request may be waiting for the proposal's outcome: only the catalog's ingest waits,
 * and it sends every proposal with an actor header. What other producers send to the topic (the
 * reference's Kafka emitters set no headers) has no one to answer, so no outcome is sent for it.
 */
export function mayBeAwaited(record: LogRecord<unknown>): boolean {
  return record.headers[ACTOR_HEADER] !== undefined;
}
