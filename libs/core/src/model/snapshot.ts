/** Legacy snapshots (MCE `proposedSnapshot`), in Rest.li or Avro-JSON form, as lists of aspects. */
import { fromAvroJson, AVRO_NAMESPACE_MARK } from './avro-json';
import type { Registry } from './registry';
import type { AspectSpec, EntitySpec } from './types';

export interface SnapshotAspect {
  readonly spec: AspectSpec;
  /** The aspect value in Rest.li form (not yet validated). */
  readonly value: unknown;
}

export interface ReadSnapshot {
  readonly entity: EntitySpec;
  readonly urn: string;
  readonly aspects: SnapshotAspect[];
}

export class SnapshotError extends Error {}

function singleKey(obj: unknown, what: string): [string, unknown] {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new SnapshotError(`${what} must be an object`);
  const entries = Object.entries(obj);
  if (entries.length !== 1) throw new SnapshotError(`${what} must have exactly one key (the record name), got ${entries.length}`);
  return entries[0];
}

/** Reads `{"<...>.DatasetSnapshot": {urn, aspects: [{"<record>": {...}}]}}`. */
export function readSnapshot(registry: Registry, snapshot: unknown): ReadSnapshot {
  const [name, body] = singleKey(snapshot, 'snapshot');
  const entity = registry.entityBySnapshot(name);
  if (!entity) throw new SnapshotError(`Unknown snapshot type '${name}'`);
  const avro = name.includes(AVRO_NAMESPACE_MARK);
  const b = body as { urn?: unknown; aspects?: unknown };
  if (typeof b?.urn !== 'string') throw new SnapshotError(`${name} has no urn`);
  if (!Array.isArray(b.aspects)) throw new SnapshotError(`${name} has no aspects list`);
  const aspects = b.aspects.map((union, i) => {
    const [record, value] = singleKey(union, `aspect #${i} of ${b.urn}`);
    const spec = registry.aspectByRecord(record);
    if (!spec) throw new SnapshotError(`Unknown aspect record '${record}' in ${name}`);
    return { spec, value: avro || record.includes(AVRO_NAMESPACE_MARK) ? fromAvroJson(value, spec.type) : value };
  });
  return { entity, urn: b.urn, aspects };
}
