/**
 * Reads the Avro-JSON of the reference's files leniently. Strict Avro-JSON wraps every
 * non-null union value as `{"<branch>": value}`; the reference's sample files (and its
 * Python tools, which accept them) also leave some bare (`"email": "x"` for an optional
 * string). Bare values are wrapped into the first branch that can hold them so that avsc's
 * strict reader takes them.
 */
import type { Type, types } from 'avsc';

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a bare JSON value can be a value of the (non-union) Avro type. */
function fitsBranch(branch: Type, value: Json): boolean {
  switch (branch.typeName) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
    case 'long':
    case 'float':
    case 'double':
      return typeof value === 'number';
    case 'enum':
      return typeof value === 'string' && (branch as types.EnumType).symbols.includes(value);
    case 'string':
    case 'bytes':
    case 'fixed':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    default:
      return isObject(value);
  }
}

export function toStrictAvroJson(type: Type, value: Json): Json {
  switch (type.typeName) {
    case 'record': {
      if (!isObject(value)) return value;
      const out: Record<string, Json> = {};
      for (const field of (type as types.RecordType).fields) {
        const defaultValue: unknown = field.defaultValue();
        if (value[field.name] !== undefined) out[field.name] = toStrictAvroJson(field.type, value[field.name]);
        // avsc reads an absent field's default as if it were JSON input, which fails for a
        // union whose default is not null ([T, "null"]); the default in Avro-JSON reads back.
        else if (defaultValue !== undefined) out[field.name] = JSON.parse(field.type.toString(defaultValue));
      }
      return out;
    }
    case 'union:wrapped':
    case 'union:unwrapped': {
      if (value === null) return null;
      const branches = (type as types.WrappedUnionType).types;
      if (isObject(value)) {
        const keys = Object.keys(value);
        const named = keys.length === 1 ? branches.find((b) => b.branchName === keys[0]) : undefined;
        if (named) return { [keys[0]]: toStrictAvroJson(named, value[keys[0]]) };
      }
      // A bare object fitting several records or maps is ambiguous: left for avsc to reject.
      const fitting = branches.filter((b) => fitsBranch(b, value));
      const bare = fitting.length === 1 || !isObject(value) ? fitting[0] : undefined;
      return bare?.branchName ? { [bare.branchName]: toStrictAvroJson(bare, value) } : value;
    }
    case 'array':
      return Array.isArray(value) ? value.map((v) => toStrictAvroJson((type as types.ArrayType).itemsType, v)) : value;
    case 'map':
      if (!isObject(value)) return value;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toStrictAvroJson((type as types.MapType).valuesType as Type, v)]));
    default:
      return value;
  }
}
