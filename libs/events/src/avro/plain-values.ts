/**
 * Converts between avsc's in-memory values and the plain values of ./types, guided by the
 * schema: the null branch of an optional field is an absent (undefined) property, `bytes`
 * are UTF-8 text (every bytes field of the events holds JSON), `fixed` stays binary.
 * Only optional unions (null and one other branch) occur outside the MCE snapshot.
 */
import type { Type, types } from 'avsc';

function optionalBranch(type: Type): Type {
  const branches = (type as types.UnwrappedUnionType).types.filter((t) => t.typeName !== 'null');
  if (branches.length !== 1) throw new TypeError(`${type.toString()} is not an optional type`);
  return branches[0];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function toPlain(type: Type, value: unknown): unknown {
  switch (type.typeName) {
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const field of (type as types.RecordType).fields) {
        const v = toPlain(field.type, (value as Record<string, unknown>)[field.name]);
        if (v !== undefined) out[field.name] = v;
      }
      return out;
    }
    case 'union:unwrapped':
      return value === null ? undefined : toPlain(optionalBranch(type), value);
    case 'null':
      return undefined;
    case 'bytes':
      return (value as Buffer).toString('utf8');
    case 'array':
      return (value as unknown[]).map((v) => toPlain((type as types.ArrayType).itemsType, v));
    case 'map':
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toPlain((type as types.MapType).valuesType as Type, v)]));
    default:
      return value;
  }
}

export function fromPlain(type: Type, value: unknown): unknown {
  switch (type.typeName) {
    case 'record': {
      if (!isObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const field of (type as types.RecordType).fields) out[field.name] = fromPlain(field.type, value[field.name]);
      return out;
    }
    case 'union:unwrapped':
      return value === undefined || value === null ? null : fromPlain(optionalBranch(type), value);
    case 'null':
      return null;
    case 'bytes':
      return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    case 'fixed':
      return value instanceof Uint8Array ? Buffer.from(value) : value;
    case 'array':
      return Array.isArray(value) ? value.map((v) => fromPlain((type as types.ArrayType).itemsType, v)) : value;
    case 'map':
      if (!isObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromPlain((type as types.MapType).valuesType as Type, v)]));
    default:
      return value;
  }
}
