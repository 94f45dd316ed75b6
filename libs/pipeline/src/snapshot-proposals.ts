/** Legacy snapshot ingest (MCE): each aspect of the snapshot becomes an UPSERT proposal. */
import { badRequest, readSnapshot, SnapshotError, type Registry } from '@cairn/core';
import type { MetadataChangeProposal, SystemMetadata } from '@cairn/events';
import { JSON_CONTENT } from './proposal-check';

export function proposalsOfSnapshot(registry: Registry, snapshot: unknown, systemMetadata?: SystemMetadata): MetadataChangeProposal[] {
  let read;
  try {
    read = readSnapshot(registry, snapshot);
  } catch (err) {
    if (err instanceof SnapshotError) throw badRequest(err.message);
    throw err;
  }
  if (read.aspects.length === 0) throw badRequest(`Snapshot of ${read.urn} has no aspects`);
  return read.aspects.map(({ spec, value }) => ({
    entityType: read.entity.name,
    entityUrn: read.urn,
    changeType: 'UPSERT' as const,
    aspectName: spec.name,
    aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT },
    ...(systemMetadata ? { systemMetadata } : {}),
  }));
}
