/**
 * Legacy snapshots (`/entities?action=batchIngest`) of the synthetic catalog's proposals: an
 * entity's consecutive proposals become one snapshot, each aspect under its record's name, as the
 * reference's MCE producers send them. Time-series aspects have no place in a snapshot.
 */
import type { Registry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';

export interface SnapshotEntity {
  readonly value: Record<string, { urn: string; aspects: Record<string, unknown>[] }>;
}

/** Whether a proposal can travel in a snapshot: an aspect that is not a time series, of an entity that has a snapshot form. */
export function fitsSnapshot(registry: Registry, p: MetadataChangeProposal): boolean {
  return registry.entity(p.entityType)?.snapshot !== undefined && registry.aspect(p.aspectName ?? '')?.kind !== 'timeseries';
}

export function snapshotsOf(registry: Registry, proposals: readonly MetadataChangeProposal[]): SnapshotEntity[] {
  const out: SnapshotEntity[] = [];
  let current: { urn: string; aspects: Record<string, unknown>[] } | undefined;
  for (const p of proposals) {
    const entity = registry.entity(p.entityType);
    const aspect = registry.aspect(p.aspectName ?? '');
    const urn = p.entityUrn;
    if (!entity?.snapshot || !aspect || !p.aspect || urn === undefined) throw new Error(`${p.entityType}.${p.aspectName} has no snapshot form`);
    if (current?.urn !== urn) {
      current = { urn, aspects: [] };
      out.push({ value: { [entity.snapshot]: current } });
    }
    current.aspects.push({ [aspect.record]: JSON.parse(p.aspect.value) });
  }
  return out;
}
