/** Kafka topics of the reference's event interface, and their schema registry subjects. */
import type { EventKind } from './avro/event-schemas';

export const TOPICS = {
  metadataChangeProposal: 'MetadataChangeProposal_v1',
  failedMetadataChangeProposal: 'FailedMetadataChangeProposal_v1',
  metadataChangeLogVersioned: 'MetadataChangeLog_Versioned_v1',
  metadataChangeLogTimeseries: 'MetadataChangeLog_Timeseries_v1',
  platformEvent: 'PlatformEvent_v1',
  metadataChangeEvent: 'MetadataChangeEvent_v4',
  failedMetadataChangeEvent: 'FailedMetadataChangeEvent_v4',
  metadataAuditEvent: 'MetadataAuditEvent_v4',
} as const;

export type Topic = (typeof TOPICS)[keyof typeof TOPICS];

/** The registry subject of a topic's values (Confluent's TopicNameStrategy). */
export function valueSubject(topic: string): string {
  return `${topic}-value`;
}

/** The event each topic carries, for the topics this service reads or writes. */
export const TOPIC_EVENTS = {
  [TOPICS.metadataChangeProposal]: 'mcp',
  [TOPICS.failedMetadataChangeProposal]: 'failedMcp',
  [TOPICS.metadataChangeLogVersioned]: 'mcl',
  [TOPICS.metadataChangeLogTimeseries]: 'mcl',
  [TOPICS.metadataChangeEvent]: 'mce',
  [TOPICS.platformEvent]: 'platformEvent',
} as const satisfies Partial<Record<Topic, EventKind>>;
