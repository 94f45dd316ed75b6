/** Response shapes of entity and aspect reads, as the reference answers them. */
import type { AspectSpec, EntitySpec, Registry, Urn } from '@cairn/core';
import type { StoredAspect } from '@cairn/ports';

export interface EnvelopedAspect {
  name: string;
  type: 'VERSIONED' | 'TIMESERIES';
  version: number;
  value: unknown;
  created: { time: number; actor: string };
  systemMetadata?: unknown;
}

export function envelope(row: StoredAspect): EnvelopedAspect {
  return {
    name: row.aspect,
    type: 'VERSIONED',
    version: row.version,
    value: JSON.parse(row.metadata),
    created: { time: row.createdOn, actor: row.createdBy },
    ...(row.systemMetadata ? { systemMetadata: row.systemMetadata } : {}),
  };
}

/** The stored rows of an entity, plus its key aspect made from the URN when it is not stored. */
export function withKeyAspect(registry: Registry, urn: Urn, entity: EntitySpec, rows: StoredAspect[], wanted?: ReadonlySet<string>): StoredAspect[] {
  const keyName = entity.keyAspect.name;
  if (rows.some((r) => r.aspect === keyName) || (wanted && !wanted.has(keyName))) return rows;
  const key: StoredAspect = { urn: urn.raw, aspect: keyName, version: 0, metadata: JSON.stringify(registry.keyFromUrn(urn, entity)), createdOn: 0, createdBy: 'urn:li:corpuser:__datahub_system' };
  return [key, ...rows];
}

export function entityResponse(urn: Urn, entity: EntitySpec, rows: StoredAspect[]) {
  return {
    urn: urn.raw,
    entityName: entity.name,
    aspects: Object.fromEntries(rows.map((r) => [r.aspect, envelope(r)])),
  };
}

export function recordUnion(spec: AspectSpec, value: unknown): Record<string, unknown> {
  return { [spec.record]: value };
}
