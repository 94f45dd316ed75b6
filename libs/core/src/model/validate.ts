/** Validation of aspect values (Rest.li JSON form) against their type, with null-stripping. */
import { isUrn } from '../urn';
import { cleanCheckOf, PRIMITIVE_RULES, symbolsOf } from './compiled-check';
import { deref } from './load-model';
import type { FieldDef, RecordType, TypeExpr } from './types';

export interface ValidationResult {
  /**
   * The value with `null` optional fields removed: the input itself when it holds none (and nothing
   * but its type's fields), else a copy whose records have their fields in the record's order. The
   * input is never changed.
   */
  readonly value: unknown;
  readonly errors: readonly string[];
}

const MAX_ERRORS = 20;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 80);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * One validation's state. The path of the value being checked is a stack of segments, joined only
 * when an error is reported: a valid value (nearly every one) builds no path strings.
 */
class Check {
  readonly errors: string[] = [];
  private readonly path: (string | number)[] = [];

  fail(message: string, last?: string): void {
    if (this.errors.length >= MAX_ERRORS) return;
    const segments = last === undefined ? this.path : [...this.path, last];
    this.errors.push(`${segments.length ? `/${segments.join('/')}` : '/'}: ${message}`);
  }

  /** Checks `value` as the child `segment` of the current one. */
  child(value: unknown, type: TypeExpr, segment: string | number): unknown {
    this.path.push(segment);
    const out = this.value(value, type);
    this.path.pop();
    return out;
  }

  value(value: unknown, type: TypeExpr): unknown {
    const t = deref(type);
    switch (t.kind) {
      case 'primitive': {
        const rule = PRIMITIVE_RULES[t.name];
        if (!rule.test(value)) this.fail(`expected ${rule.expected}, got ${describe(value)}`);
        return value;
      }
      case 'urn':
        if (!isUrn(value)) this.fail(`expected a urn, got ${describe(value)}`);
        return value;
      case 'enum':
        if (typeof value !== 'string' || !symbolsOf(t).has(value)) this.fail(`${describe(value)} is not a symbol of enum ${t.name}`);
        return value;
      case 'array': {
        if (!Array.isArray(value)) {
          this.fail(`expected an array, got ${describe(value)}`);
          return value;
        }
        // Copied from the first item that changed on; none changed: the array itself.
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const item = this.child(value[i], t.items, i);
          if (out) out.push(item);
          else if (item !== value[i]) (out = value.slice(0, i)).push(item);
        }
        return out ?? value;
      }
      case 'map': {
        if (!isPlainObject(value)) {
          this.fail(`expected a map, got ${describe(value)}`);
          return value;
        }
        // Entries copied from the first value that changed on; none changed: the map itself.
        let entries: [string, unknown][] | undefined;
        let index = 0;
        for (const k in value) {
          if (!Object.hasOwn(value, k)) continue;
          const checked = this.child(value[k], t.values, k);
          if (entries) entries.push([k, checked]);
          else if (checked !== value[k]) (entries = Object.entries(value).slice(0, index)).push([k, checked]);
          index++;
        }
        // fromEntries defines the keys: assigning would drop a key named `__proto__` (or make it the prototype).
        return entries ? Object.fromEntries(entries) : value;
      }
      case 'union': {
        const keys = isPlainObject(value) ? Object.keys(value) : [];
        if (!isPlainObject(value) || keys.length !== 1) {
          this.fail(`expected a union object with one member key, got ${describe(value)}`);
          return value;
        }
        const member = t.members.find((m) => m.key === keys[0]);
        if (!member) {
          this.fail(`'${keys[0]}' is not a member of the union (${t.members.map((m) => m.key).join(', ')})`);
          return value;
        }
        const checked = this.child(value[member.key], member.type, member.key);
        return checked === value[member.key] ? value : { [member.key]: checked };
      }
      case 'record':
        return this.record(value, t);
    }
  }

  private record(value: unknown, record: RecordType): unknown {
    if (!isPlainObject(value)) {
      this.fail(`expected a ${record.name} record, got ${describe(value)}`);
      return value;
    }
    const known = fieldsOf(record);
    let unknownKeys: string[] | undefined;
    let ownKeys = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      ownKeys++;
      if (known.has(key)) continue;
      this.fail(`unrecognized field of ${record.name}`, key);
      (unknownKeys ??= []).push(key);
    }
    // The value itself while it holds nothing but its present fields, each unchanged; from the first
    // difference on, a copy with the fields in the record's order.
    let out: Record<string, unknown> | undefined;
    let present = 0;
    const fields = record.fields;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const v = value[field.name];
      if (v === undefined || (v === null && (field.optional || field.default !== undefined))) {
        if (v === null) out ??= presentFields(value, fields, i);
        else if (!field.optional && field.default === undefined) this.fail(`required field is missing`, field.name);
        continue;
      }
      const checked = this.child(v, field.type, field.name);
      if (!out && checked !== v) out = presentFields(value, fields, i);
      if (out) out[field.name] = checked;
      present++;
    }
    if (!out && present === ownKeys) return value;
    out ??= presentFields(value, fields, fields.length);
    if (unknownKeys) for (const key of unknownKeys) out[key] = value[key];
    return out;
  }
}

/** The fields before `end` that `value` holds (not null), as they are. */
function presentFields(value: Record<string, unknown>, fields: readonly FieldDef[], end: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < end; i++) {
    const v = value[fields[i]!.name];
    if (v !== undefined && v !== null) copy[fields[i]!.name] = v;
  }
  return copy;
}

/** A record's fields by name, built once per field list (models are loaded once, then read). */
const fieldMaps = new WeakMap<readonly FieldDef[], ReadonlyMap<string, FieldDef>>();
function fieldsOf(record: RecordType): ReadonlyMap<string, FieldDef> {
  let known = fieldMaps.get(record.fields);
  if (!known) fieldMaps.set(record.fields, (known = new Map(record.fields.map((f) => [f.name, f]))));
  return known;
}

const NO_ERRORS: readonly string[] = Object.freeze([]);

export function validateValue(value: unknown, type: TypeExpr): ValidationResult {
  return cleanCheckOf(type)(value) ? { value, errors: NO_ERRORS } : walkValue(value, type);
}

/** The check without its compiled shortcut: what `cleanCheckOf` must agree with. */
export function walkValue(value: unknown, type: TypeExpr): ValidationResult {
  const check = new Check();
  const out = check.value(value, type);
  return { value: out, errors: check.errors };
}
