/** Response shapes of entity and aspect reads, as the reference answers them. */
import type { AspectSpec, EntitySpec, Registry, Urn } from '@cairn/core';
import type { StoredAspect } from '@cairn/ports';

/** The stored rows of an entity, plus its key aspect made from the URN when it is not stored. */
export function withKeyAspect(registry: Registry, urn: Urn, entity: EntitySpec, rows: StoredAspect[], wanted?: ReadonlySet<string>): StoredAspect[] {
  const keyName = entity.keyAspect.name;
  if (rows.some((r) => r.aspect === keyName) || (wanted && !wanted.has(keyName))) return rows;
  const key: StoredAspect = { urn: urn.raw, aspect: keyName, version: 0, metadata: JSON.stringify(registry.keyFromUrn(urn, entity)), createdOn: 0, createdBy: 'urn:li:corpuser:__datahub_system' };
  return [key, ...rows];
}

/**
 * `{urn, entityName, aspects: {name: envelope}}` as JSON text. Stored values are already compact
 * JSON (normalized when written), so they are spliced in as they are rather than parsed and
 * serialized again: the bulk of an entity read.
 */
export function entityResponseJson(urn: Urn, entity: EntitySpec, rows: StoredAspect[]): string {
  const aspects = rows.map((r) => {
    const created = JSON.stringify({ time: r.createdOn, actor: r.createdBy });
    const systemMetadata = r.systemMetadata ? `,"systemMetadata":${JSON.stringify(r.systemMetadata)}` : '';
    return `${JSON.stringify(r.aspect)}:{"name":${JSON.stringify(r.aspect)},"type":"VERSIONED","version":${r.version},"value":${r.metadata},"created":${created}${systemMetadata}}`;
  });
  return `{"urn":${JSON.stringify(urn.raw)},"entityName":${JSON.stringify(entity.name)},"aspects":{${aspects.join(',')}}}`;
}

export function recordUnion(spec: AspectSpec, value: unknown): Record<string, unknown> {
  return { [spec.record]: value };
}
