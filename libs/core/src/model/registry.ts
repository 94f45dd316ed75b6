/** Queries over the loaded model: entities, aspects, URN keys and snapshot names. */
import { parseUrn, type Urn, UrnSyntaxError } from '../urn';
import { deref, loadModel, type LoadedModel } from './load-model';
import { toPegasusName } from './avro-json';
import { validateValue } from './validate';
import type { AspectSpec, EntitySpec, FieldDef } from './types';

export class Registry {
  private readonly entitiesLower = new Map<string, EntitySpec>();
  private readonly aspectsByRecord = new Map<string, AspectSpec>();
  private readonly entitiesBySnapshot = new Map<string, EntitySpec>();

  constructor(readonly model: LoadedModel) {
    for (const e of model.entities.values()) {
      this.entitiesLower.set(e.name.toLowerCase(), e);
      if (e.snapshot) this.entitiesBySnapshot.set(e.snapshot, e);
    }
    for (const a of model.aspects.values()) this.aspectsByRecord.set(a.record, a);
  }

  static load(dir?: string): Registry {
    return new Registry(loadModel(dir));
  }

  /** The entity by name; URNs of the reference are not consistent in case (`corpUser`). */
  entity(name: string): EntitySpec | undefined {
    return this.model.entities.get(name) ?? this.entitiesLower.get(name.toLowerCase());
  }

  entities(): EntitySpec[] {
    return [...this.model.entities.values()];
  }

  aspect(name: string): AspectSpec | undefined {
    return this.model.aspects.get(name);
  }

  /** An aspect by its record name, in Rest.li (`com.linkedin.x`) or Avro (`com.linkedin.pegasus2avro.x`) form. */
  aspectByRecord(record: string): AspectSpec | undefined {
    return this.aspectsByRecord.get(toPegasusName(record));
  }

  entityBySnapshot(snapshot: string): EntitySpec | undefined {
    return this.entitiesBySnapshot.get(toPegasusName(snapshot));
  }

  /** Parses and checks a URN against its entity's key aspect. Throws UrnSyntaxError. */
  parseEntityUrn(raw: string): { urn: Urn; entity: EntitySpec; key: Record<string, unknown> } {
    const urn = parseUrn(raw);
    const entity = this.entity(urn.entityType);
    if (!entity) throw new UrnSyntaxError(`Unknown entity type '${urn.entityType}' in urn '${raw}'`);
    return { urn, entity, key: this.keyFromUrn(urn, entity) };
  }

  /** The key aspect value encoded by a URN, validated against the key aspect's schema. */
  keyFromUrn(urn: Urn, entity: EntitySpec): Record<string, unknown> {
    const fields = entity.keyAspect.type.fields;
    const parts = assignKeyParts(urn, fields);
    const key: Record<string, unknown> = {};
    fields.forEach((f, i) => {
      if (parts[i] !== undefined) key[f.name] = coerceKeyPart(parts[i], f);
    });
    const { errors } = validateValue(key, entity.keyAspect.type);
    if (errors.length) throw new UrnSyntaxError(`Invalid urn '${urn.raw}' for entity ${entity.name}: ${errors.join('; ')}`);
    return key;
  }
}

/**
 * Maps URN parts onto key fields. A name may itself hold commas (`(p,a,b,PROD)`), giving more
 * parts than fields: the extra parts join into the free-text field, the first string field
 * after the leading one (dataset name, chartId, flowId, jobId, ...).
 */
function assignKeyParts(urn: Urn, fields: readonly FieldDef[]): string[] {
  const parts = fields.length === 1 ? [urn.id] : [...urn.parts];
  if (parts.length === fields.length) return parts;
  const required = fields.filter((f) => !f.optional && f.default === undefined).length;
  if (parts.length < fields.length) {
    if (parts.length >= required) return parts;
    throw new UrnSyntaxError(`Invalid urn '${urn.raw}': expected ${fields.length} key parts, got ${parts.length}`);
  }
  let greedy = fields.findIndex((f, i) => i > 0 && deref(f.type).kind === 'primitive');
  if (greedy < 0) greedy = 0;
  const extra = parts.length - fields.length;
  const joined = parts.slice(greedy, greedy + extra + 1).join(',');
  return [...parts.slice(0, greedy), joined, ...parts.slice(greedy + extra + 1)];
}

function coerceKeyPart(part: string, field: FieldDef): unknown {
  const t = deref(field.type);
  if (t.kind === 'primitive' && (t.name === 'int' || t.name === 'long') && /^-?\d+$/.test(part)) return Number(part);
  return part;
}

let shared: Registry | undefined;

/** The registry of the default model folder, loaded once per process. */
export function defaultRegistry(): Registry {
  shared ??= Registry.load();
  return shared;
}
