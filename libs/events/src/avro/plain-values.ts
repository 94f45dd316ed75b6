/**
 * Converts between avsc's in-memory values and the plain values of ./types, guided by the
 * schema: the null branch of an optional field is an absent (undefined) property, `bytes`
 * are UTF-8 text (every bytes field of the events holds JSON), `fixed` stays binary.
 * Only optional unions (null and one other branch) occur outside the MCE snapshot.
 *
 * Each type's conversion is built once, as a function per record, union, array and map, rather
 * than walked by type name for every value: the walk (and finding each optional union's branch
 * again) was about a third of encoding and decoding a change log.
 */
import type { Type, types } from 'avsc';

type Convert = (value: unknown) => unknown;

const identity: Convert = (value) => value;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The one branch of an optional union besides null; undefined when the union is no optional one. */
function optionalBranch(type: Type): Type | undefined {
  const branches = (type as types.UnwrappedUnionType).types.filter((t) => t.typeName !== 'null');
  return branches.length === 1 ? branches[0] : undefined;
}

function notOptional(type: Type): Convert {
  return () => {
    throw new TypeError(`${type.toString()} is not an optional type`);
  };
}

/** The conversions of one direction, each built once per type (a recursive type refers to itself through its entry). */
class Converters {
  private readonly built = new WeakMap<Type, Convert>();

  constructor(private readonly build: (type: Type, of: (type: Type) => Convert) => Convert) {}

  of = (type: Type): Convert => {
    const known = this.built.get(type);
    if (known) return known;
    let convert: Convert | undefined;
    this.built.set(type, (value) => convert!(value));
    convert = this.build(type, this.of);
    this.built.set(type, convert);
    return convert;
  };
}

const toPlainConverters = new Converters((type, of) => {
  switch (type.typeName) {
    case 'record': {
      const fields = (type as types.RecordType).fields.map((field) => ({ name: field.name, convert: of(field.type) }));
      return (value) => {
        const record = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const { name, convert } of fields) {
          const v = convert(record[name]);
          if (v !== undefined) out[name] = v;
        }
        return out;
      };
    }
    case 'union:unwrapped': {
      const branch = optionalBranch(type);
      const convert = branch ? of(branch) : notOptional(type);
      return (value) => (value === null ? undefined : convert(value));
    }
    case 'null':
      return () => undefined;
    case 'bytes':
      return (value) => (value as Buffer).toString('utf8');
    case 'array': {
      const convert = of((type as types.ArrayType).itemsType);
      return (value) => (value as unknown[]).map((v) => convert(v));
    }
    case 'map': {
      const convert = of((type as types.MapType).valuesType as Type);
      return (value) => Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, convert(v)]));
    }
    default:
      return identity;
  }
});

const fromPlainConverters = new Converters((type, of) => {
  switch (type.typeName) {
    case 'record': {
      const fields = (type as types.RecordType).fields.map((field) => ({ name: field.name, convert: of(field.type) }));
      return (value) => {
        if (!isObject(value)) return value;
        const out: Record<string, unknown> = {};
        for (const { name, convert } of fields) out[name] = convert(value[name]);
        return out;
      };
    }
    case 'union:unwrapped': {
      const branch = optionalBranch(type);
      const convert = branch ? of(branch) : notOptional(type);
      return (value) => (value === undefined || value === null ? null : convert(value));
    }
    case 'null':
      return () => null;
    case 'bytes':
      return (value) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
    case 'fixed':
      return (value) => (value instanceof Uint8Array ? Buffer.from(value) : value);
    case 'array': {
      const convert = of((type as types.ArrayType).itemsType);
      return (value) => (Array.isArray(value) ? value.map((v) => convert(v)) : value);
    }
    case 'map': {
      const convert = of((type as types.MapType).valuesType as Type);
      return (value) => (isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)])) : value);
    }
    default:
      return identity;
  }
});

export function toPlain(type: Type, value: unknown): unknown {
  return toPlainConverters.of(type)(value);
}

export function fromPlain(type: Type, value: unknown): unknown {
  return fromPlainConverters.of(type)(value);
}
