/** The topics the pipeline moves events through. */
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import type { EventLog } from '@cairn/ports';

export interface PipelineLogs {
  readonly proposals: EventLog<MetadataChangeProposal>;
  readonly failedProposals: EventLog<FailedMetadataChangeProposal>;
  readonly versionedChangeLog: EventLog<MetadataChangeLog>;
  readonly timeseriesChangeLog: EventLog<MetadataChangeLog>;
}

/** Header carrying the URN of the actor who made a proposal. */
export const ACTOR_HEADER = 'actor';
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';
