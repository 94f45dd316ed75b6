/**
 * Time-series documents as stored: the reference's shape (`urn`, `timestampMillis`,
 * `@timestamp`, `event` and `systemMetadata` as objects), with the identity fields kept as
 * given so a document reads back exactly as it was written.
 */
import type { TimeseriesDocument } from '@cairn/ports';

export interface StoredTimeseriesDocument {
  urn: string;
  timestampMillis: number;
  '@timestamp': number;
  eventGranularity?: string;
  partitionSpec?: string;
  messageId?: string;
  event: Record<string, unknown>;
  systemMetadata?: unknown;
}

export function toStoredTimeseries(d: TimeseriesDocument): Record<string, unknown> {
  const stored: StoredTimeseriesDocument = {
    urn: d.urn,
    timestampMillis: d.timestampMillis,
    '@timestamp': d.timestampMillis,
    ...(d.eventGranularity !== undefined ? { eventGranularity: d.eventGranularity } : {}),
    ...(d.partitionSpec !== undefined ? { partitionSpec: d.partitionSpec } : {}),
    ...(d.messageId !== undefined ? { messageId: d.messageId } : {}),
    event: JSON.parse(d.event) as Record<string, unknown>,
    ...(d.systemMetadata !== undefined ? { systemMetadata: JSON.parse(d.systemMetadata) } : {}),
  };
  return { ...stored };
}

export function fromStoredTimeseries(entityType: string, aspect: string, s: StoredTimeseriesDocument): TimeseriesDocument {
  return {
    entityType,
    aspect,
    urn: s.urn,
    timestampMillis: s.timestampMillis,
    ...(s.eventGranularity !== undefined ? { eventGranularity: s.eventGranularity } : {}),
    ...(s.partitionSpec !== undefined ? { partitionSpec: s.partitionSpec } : {}),
    ...(s.messageId !== undefined ? { messageId: s.messageId } : {}),
    event: JSON.stringify(s.event),
    ...(s.systemMetadata !== undefined ? { systemMetadata: JSON.stringify(s.systemMetadata) } : {}),
  };
}
