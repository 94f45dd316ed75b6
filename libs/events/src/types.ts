/**
 * The events of the reference's Kafka interface, as TypeScript values. Field names and order
 * follow the reference's Avro schemas (schemas/avro/*.avsc); an absent optional field is
 * `undefined`, never `null`.
 */

export type ChangeType = 'UPSERT' | 'CREATE' | 'UPDATE' | 'DELETE' | 'PATCH' | 'RESTATE';

export const CHANGE_TYPES: readonly ChangeType[] = ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE'];

/** Header of LinkedIn's Kafka audit; unused by the reference, kept for binary compatibility. */
export interface KafkaAuditHeader {
  time: number;
  server: string;
  instance?: string;
  appName: string;
  /** 16 bytes (Avro `fixed` UUID). */
  messageId: Uint8Array;
  auditVersion?: number;
  fabricUrn?: string;
  clusterConnectionString?: string;
}

/** An aspect value serialized as text: `value` is the aspect JSON, `contentType` "application/json". */
export interface GenericAspect {
  value: string;
  contentType: string;
}

export interface SystemMetadata {
  lastObserved?: number;
  runId?: string;
  registryName?: string;
  registryVersion?: string;
  properties?: Record<string, string>;
}

export interface AuditStamp {
  time: number;
  actor: string;
  impersonator?: string;
  message?: string;
}

export interface MetadataChangeProposal {
  auditHeader?: KafkaAuditHeader;
  entityType: string;
  entityUrn?: string;
  entityKeyAspect?: GenericAspect;
  changeType: ChangeType;
  aspectName?: string;
  aspect?: GenericAspect;
  systemMetadata?: SystemMetadata;
}

export interface MetadataChangeLog extends MetadataChangeProposal {
  previousAspectValue?: GenericAspect;
  previousSystemMetadata?: SystemMetadata;
  created?: AuditStamp;
}

export interface FailedMetadataChangeProposal {
  auditHeader?: KafkaAuditHeader;
  metadataChangeProposal: MetadataChangeProposal;
  error: string;
}

/**
 * A legacy snapshot in the Avro-JSON form the reference's tools write:
 * `{"com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot": {urn, aspects: [{"<record>": {...}}]}}`,
 * optional values wrapped as `{"string": "x"}` and absent ones as `null`.
 */
export type AvroJsonSnapshot = Record<string, { urn: string; aspects: Array<Record<string, unknown>> }>;

/**
 * The legacy MetadataChangeEvent. Its `proposedDelta` field is omitted: the reference's schema
 * only allows `null` there.
 */
export interface MetadataChangeEvent {
  auditHeader?: KafkaAuditHeader;
  proposedSnapshot: AvroJsonSnapshot;
  systemMetadata?: SystemMetadata;
}

export interface PlatformEvent {
  header: { timestampMillis: number };
  /** The kind of event, e.g. "entityChangeEvent". */
  name: string;
  /** `value` is the event JSON. */
  payload: { value: string; contentType: string };
}
