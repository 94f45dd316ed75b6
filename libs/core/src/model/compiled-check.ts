/**
 * A value check compiled to JavaScript, one function per type, for the common case: a value that
 * is valid and already in its normalized form (no `null` optional fields, nothing but its type's
 * fields). It answers only yes or no; for a no, `validate.ts` walks the value again to make the
 * errors or the normalized copy. Why compiled: the walk reads every record's fields by names it
 * takes from the model, so each of its property reads sees every record shape there is and runs
 * V8's slowest lookup; compiled, each read names one field and sees one shape (the benchmark
 * catalog's aspects took 9.0 µs each walked and 1.7 compiled, docs/performance-log.md).
 */
import { isUrn } from '../urn';
import { deref } from './load-model';
import type { EnumType, PrimitiveName, RecordType, TypeExpr } from './types';

export type CleanCheck = (value: unknown) => boolean;

interface PrimitiveRule {
  /** How the walk's error names the type. */
  readonly expected: string;
  readonly test: (v: unknown) => boolean;
  /** The test as source, over the expression `v`. */
  readonly source: (v: string) => string;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const STRING: PrimitiveRule = { expected: 'a string', test: (v) => typeof v === 'string', source: (v) => `typeof ${v} === 'string'` };
const NUMBER: PrimitiveRule = {
  expected: 'a number',
  test: (v) => typeof v === 'number' && Number.isFinite(v),
  source: (v) => `(typeof ${v} === 'number' && Number.isFinite(${v}))`,
};

/** Each primitive's rule, for the walk and the compiled check alike. */
export const PRIMITIVE_RULES: Readonly<Record<PrimitiveName, PrimitiveRule>> = {
  string: STRING,
  bytes: STRING,
  boolean: { expected: 'a boolean', test: (v) => typeof v === 'boolean', source: (v) => `typeof ${v} === 'boolean'` },
  int: {
    expected: 'an int',
    test: (v) => typeof v === 'number' && Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX,
    source: (v) => `(typeof ${v} === 'number' && Number.isInteger(${v}) && ${v} >= ${INT32_MIN} && ${v} <= ${INT32_MAX})`,
  },
  long: { expected: 'a long', test: (v) => typeof v === 'number' && Number.isInteger(v), source: (v) => `(typeof ${v} === 'number' && Number.isInteger(${v}))` },
  float: NUMBER,
  double: NUMBER,
};

type Resolved = Exclude<TypeExpr, { kind: 'ref' }>;

/** The generated functions' first line for a record, union or map: `v` must be a plain object. */
const PLAIN_OBJECT = `if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;`;

/** Generates the functions of the types a type reaches, each once, so recursive types compile. */
class Generator {
  private readonly names = new Map<Resolved, string>();
  private readonly bodies: string[] = [];
  /** Values the generated code reads: enums' symbol sets. */
  readonly constants: unknown[] = [];

  /** An expression that is true when `v` (an expression without side effects) passes `type`. */
  test(type: TypeExpr, v: string): string {
    const t = deref(type);
    switch (t.kind) {
      case 'primitive':
        return PRIMITIVE_RULES[t.name].source(v);
      case 'urn':
        return `isUrn(${v})`;
      case 'enum':
        return `(typeof ${v} === 'string' && ${this.constant(symbolsOf(t))}.has(${v}))`;
      default:
        return `${this.functionOf(t)}(${v})`;
    }
  }

  source(entry: string): string {
    return `${this.bodies.join('\n')}\nreturn ${entry};`;
  }

  functionOf(t: Resolved): string {
    let name = this.names.get(t);
    if (name) return name;
    name = `check${this.names.size}`;
    this.names.set(t, name);
    this.bodies.push(this.body(name, t));
    return name;
  }

  private constant(value: unknown): string {
    this.constants.push(value);
    return `constants[${this.constants.length - 1}]`;
  }

  private body(name: string, t: Resolved): string {
    switch (t.kind) {
      case 'array':
        return `function ${name}(v) {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) { const x = v[i]; if (!(${this.test(t.items, 'x')})) return false; }
  return true;
}`;
      case 'map':
        return `function ${name}(v) {
  ${PLAIN_OBJECT}
  for (const k in v) { if (!Object.hasOwn(v, k)) continue; const x = v[k]; if (!(${this.test(t.values, 'x')})) return false; }
  return true;
}`;
      case 'union': {
        const cases = t.members.map((m) => `    case ${JSON.stringify(m.key)}: { const x = v[k]; return ${this.test(m.type, 'x')}; }`);
        return `function ${name}(v) {
  ${PLAIN_OBJECT}
  const keys = Object.keys(v);
  if (keys.length !== 1) return false;
  const k = keys[0];
  switch (k) {
${cases.join('\n')}
    default: return false;
  }
}`;
      }
      case 'record':
        return this.recordBody(name, t);
      default:
        return `function ${name}(v) { return ${this.test(t, 'v')}; }`;
    }
  }

  /**
   * Every present field passes (no test passes null, which the walk would strip), no required field is
   * missing, and there are no other keys (own and enumerable, the keys the walk reads).
   */
  private recordBody(name: string, t: RecordType): string {
    const fields = t.fields.map((f) => {
      const required = !f.optional && f.default === undefined;
      return `  x = v[${JSON.stringify(f.name)}];
  if (x !== undefined) { if (!(${this.test(f.type, 'x')})) return false; present++; }${required ? ' else return false;' : ''}`;
    });
    return `function ${name}(v) {
  ${PLAIN_OBJECT}
  let x; let present = 0;
${fields.join('\n')}
  return Object.keys(v).length === present;
}`;
  }
}

const symbolSets = new WeakMap<readonly string[], ReadonlySet<string>>();
export function symbolsOf(type: EnumType): ReadonlySet<string> {
  let symbols = symbolSets.get(type.symbols);
  if (!symbols) symbolSets.set(type.symbols, (symbols = new Set(type.symbols)));
  return symbols;
}

const compiled = new WeakMap<object, CleanCheck>();

/** The compiled check of a type (compiled on first use; models are loaded once, then only read). */
export function cleanCheckOf(type: TypeExpr): CleanCheck {
  const t = deref(type);
  let check = compiled.get(t);
  if (check) return check;
  const generator = new Generator();
  const entry = generator.functionOf(t);
  // The code names only the model's types and fields (as string literals), never values.
  const make = new Function('isUrn', 'constants', generator.source(entry)) as (urn: typeof isUrn, constants: unknown[]) => CleanCheck;
  check = make(isUrn, generator.constants);
  compiled.set(t, check);
  return check;
}
