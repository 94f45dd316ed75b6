/** Validation of aspect values (Rest.li JSON form) against their type, with null-stripping. */
import { isUrn } from '../urn';
import { deref } from './load-model';
import type { FieldDef, RecordType, TypeExpr } from './types';

export interface ValidationResult {
  /** The value with `null` optional fields removed. */
  readonly value: unknown;
  readonly errors: readonly string[];
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const MAX_ERRORS = 20;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 80);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function validateValue(value: unknown, type: TypeExpr): ValidationResult {
  const errors: string[] = [];
  const out = check(value, type, '', errors);
  return { value: out, errors };
}

function fail(errors: string[], path: string, message: string): void {
  if (errors.length < MAX_ERRORS) errors.push(`${path || '/'}: ${message}`);
}

function check(value: unknown, type: TypeExpr, path: string, errors: string[]): unknown {
  const t = deref(type);
  switch (t.kind) {
    case 'primitive':
      switch (t.name) {
        case 'string':
        case 'bytes':
          if (typeof value !== 'string') fail(errors, path, `expected a string, got ${describe(value)}`);
          return value;
        case 'boolean':
          if (typeof value !== 'boolean') fail(errors, path, `expected a boolean, got ${describe(value)}`);
          return value;
        case 'int':
          if (typeof value !== 'number' || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) {
            fail(errors, path, `expected an int, got ${describe(value)}`);
          }
          return value;
        case 'long':
          if (typeof value !== 'number' || !Number.isInteger(value)) fail(errors, path, `expected a long, got ${describe(value)}`);
          return value;
        case 'float':
        case 'double':
          if (typeof value !== 'number' || !Number.isFinite(value)) fail(errors, path, `expected a number, got ${describe(value)}`);
          return value;
      }
      return value;
    case 'urn':
      if (!isUrn(value)) fail(errors, path, `expected a urn, got ${describe(value)}`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !t.symbols.includes(value)) {
        fail(errors, path, `${describe(value)} is not a symbol of enum ${t.name}`);
      }
      return value;
    case 'array':
      if (!Array.isArray(value)) {
        fail(errors, path, `expected an array, got ${describe(value)}`);
        return value;
      }
      return value.map((item, i) => check(item, t.items, `${path}/${i}`, errors));
    case 'map': {
      if (!isPlainObject(value)) {
        fail(errors, path, `expected a map, got ${describe(value)}`);
        return value;
      }
      // fromEntries defines the keys: assigning would drop a key named `__proto__` (or make it the prototype).
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, check(v, t.values, `${path}/${k}`, errors)]));
    }
    case 'union': {
      const keys = isPlainObject(value) ? Object.keys(value) : [];
      if (!isPlainObject(value) || keys.length !== 1) {
        fail(errors, path, `expected a union object with one member key, got ${describe(value)}`);
        return value;
      }
      const member = t.members.find((m) => m.key === keys[0]);
      if (!member) {
        fail(errors, path, `'${keys[0]}' is not a member of the union (${t.members.map((m) => m.key).join(', ')})`);
        return value;
      }
      return { [member.key]: check(value[member.key], member.type, `${path}/${member.key}`, errors) };
    }
    case 'record':
      return checkRecord(value, t, path, errors);
  }
}

function checkRecord(value: unknown, record: RecordType, path: string, errors: string[]): unknown {
  if (!isPlainObject(value)) {
    fail(errors, path, `expected a ${record.name} record, got ${describe(value)}`);
    return value;
  }
  const out: Record<string, unknown> = {};
  const known = new Map<string, FieldDef>(record.fields.map((f) => [f.name, f]));
  for (const key of Object.keys(value)) {
    if (!known.has(key)) fail(errors, `${path}/${key}`, `unrecognized field of ${record.name}`);
  }
  for (const field of record.fields) {
    const v = value[field.name];
    const present = v !== undefined && !(v === null && (field.optional || field.default !== undefined));
    if (!present) {
      if (v === null) continue;
      if (!field.optional && field.default === undefined) fail(errors, `${path}/${field.name}`, `required field is missing`);
      continue;
    }
    out[field.name] = check(v, field.type, `${path}/${field.name}`, errors);
  }
  for (const key of Object.keys(value)) if (!known.has(key)) out[key] = value[key];
  return out;
}
