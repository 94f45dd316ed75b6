/**
 * Converts the Avro-JSON form written by the reference's tools (`com.linkedin.pegasus2avro.*`
 * names, optional values wrapped as `{"string": "x"}`, nulls for absent fields) into the
 * Rest.li JSON form the service stores. Plain Rest.li JSON passes through unchanged.
 */
import { deref } from './load-model';
import type { TypeExpr, UnionMember } from './types';

export const AVRO_NAMESPACE_MARK = '.pegasus2avro.';

export function toPegasusName(name: string): string {
  return name.replace(AVRO_NAMESPACE_MARK, '.');
}

export function toAvroName(name: string): string {
  return name.startsWith('com.linkedin.') && !name.includes(AVRO_NAMESPACE_MARK)
    ? name.replace('com.linkedin.', 'com.linkedin.pegasus2avro.')
    : name;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The key an Avro union `["null", T]` uses to wrap a non-null value of type T. */
function avroWrapperKeys(type: TypeExpr): string[] {
  const t = deref(type);
  switch (t.kind) {
    case 'primitive':
      return [t.name];
    case 'urn':
      return ['string'];
    case 'array':
      return ['array'];
    case 'map':
      return ['map'];
    case 'record':
    case 'enum':
      return [toAvroName(t.name), t.name];
    case 'union':
      return [];
  }
}

function unwrapOptional(value: unknown, type: TypeExpr): unknown {
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  return avroWrapperKeys(type).includes(keys[0]) ? value[keys[0]] : value;
}

/** Files often write a union's primitive or enum member bare ("SQL"); give it its member key. */
function wrapBareMember(value: unknown, members: readonly UnionMember[]): unknown {
  const member = members.find((m) => {
    const t = deref(m.type);
    if (typeof value === 'string') return (t.kind === 'enum' && t.symbols.includes(value)) || t.kind === 'urn' || (t.kind === 'primitive' && t.name === 'string');
    if (typeof value === 'number') return t.kind === 'primitive' && ['int', 'long', 'float', 'double'].includes(t.name);
    if (typeof value === 'boolean') return t.kind === 'primitive' && t.name === 'boolean';
    return false;
  });
  return member ? { [member.key]: value } : value;
}

export function fromAvroJson(value: unknown, type: TypeExpr): unknown {
  const t = deref(type);
  switch (t.kind) {
    case 'array':
      return Array.isArray(value) ? value.map((v) => fromAvroJson(v, t.items)) : value;
    case 'map':
      if (!isPlainObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromAvroJson(v, t.values)]));
    case 'union': {
      if (!isPlainObject(value)) return wrapBareMember(value, t.members);
      // Aliased unions become records in Avro: {fieldDiscriminator: alias, <alias>: value}.
      if (t.aliased && typeof value.fieldDiscriminator === 'string') {
        const member = t.members.find((m) => m.key === value.fieldDiscriminator);
        if (!member) return value;
        return { [member.key]: fromAvroJson(unwrapOptional(value[member.key], member.type), member.type) };
      }
      const keys = Object.keys(value);
      if (keys.length !== 1) return value;
      const key = t.aliased ? keys[0] : toPegasusName(keys[0]);
      const member = t.members.find((m) => m.key === key);
      return member ? { [key]: fromAvroJson(value[keys[0]], member.type) } : value;
    }
    case 'record': {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      const fields = new Map(t.fields.map((f) => [f.name, f]));
      for (const [k, v] of Object.entries(value)) {
        const field = fields.get(k);
        if (!field) {
          out[k] = v;
          continue;
        }
        if (v === null && (field.optional || field.default !== undefined)) continue;
        const inner = field.optional ? unwrapOptional(v, field.type) : v;
        out[k] = fromAvroJson(inner, field.type);
      }
      return out;
    }
    default:
      return value;
  }
}
