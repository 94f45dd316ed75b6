/**
 * Translates the model's type expressions into Avro schemas the way the reference's
 * Pegasus-to-Avro translation does, so that records written by the reference's tools decode
 * with them: names under `com.linkedin.pegasus2avro.`, optional fields as `["null", T]`
 * (or `[T, "null"]` when they have a default, since an Avro default belongs to the first
 * branch), URNs as strings, unions with aliases as records with a `fieldDiscriminator`.
 */
import { deref, toAvroName, type FieldDef, type RecordType, type TypeExpr } from '@cairn/core';

/** An Avro schema as JSON: a type name, a union, or a complex type. */
export type AvroSchema = string | AvroSchema[] | AvroComplexSchema;

export interface AvroComplexSchema {
  readonly type: string;
  readonly [attribute: string]: unknown;
}

export interface AvroField {
  readonly name: string;
  readonly type: AvroSchema;
  readonly default?: unknown;
}

export class AvroTranslationError extends Error {}

/** The record field a type expression belongs to; names the record of an aliased union. */
interface FieldContext {
  readonly owner: RecordType;
  readonly field: string;
}

export function splitName(fullName: string): { name: string; namespace: string } {
  const dot = fullName.lastIndexOf('.');
  return { name: fullName.slice(dot + 1), namespace: fullName.slice(0, dot) };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Builds the schemas of one Avro document: each named type is written out in full where it
 * is first used and referenced by name afterwards, as Avro requires.
 */
export class AvroSchemaBuilder {
  private readonly defined = new Set<string>();

  schemaOf(type: TypeExpr, context?: FieldContext): AvroSchema {
    const t = deref(type);
    switch (t.kind) {
      case 'primitive':
        return t.name;
      case 'urn':
        return 'string';
      case 'array':
        return { type: 'array', items: this.schemaOf(t.items, context) };
      case 'map':
        return { type: 'map', values: this.schemaOf(t.values, context) };
      case 'union':
        return t.aliased ? this.aliasedUnion(t.members, context) : t.members.map((m) => this.schemaOf(m.type, context));
      case 'enum':
        return this.named(t.name, (name, namespace) => ({ type: 'enum', name, namespace, symbols: [...t.symbols] }));
      case 'record':
        return this.named(t.name, (name, namespace) => ({
          type: 'record',
          name,
          namespace,
          fields: t.fields.map((f) => this.field(f, t)),
        }));
    }
  }

  private field(field: FieldDef, owner: RecordType): AvroField {
    const context = { owner, field: field.name };
    const where = `${owner.name}.${field.name}`;
    if (!field.optional) {
      const type = this.schemaOf(field.type, context);
      return field.default === undefined ? { name: field.name, type } : { name: field.name, type, default: avroDefault(field.default, field.type, where) };
    }
    const t = deref(field.type);
    const schema = this.schemaOf(field.type, context);
    // An optional Pegasus union becomes one Avro union with null rather than a nested union.
    const members = t.kind === 'union' && !t.aliased ? (schema as AvroSchema[]) : [schema];
    if (field.default === undefined) return { name: field.name, type: ['null', ...members], default: null };
    return { name: field.name, type: [...members, 'null'], default: avroDefault(field.default, field.type, where) };
  }

  /** `union[a: A, b: B]` as the reference writes it: a record of optional members and a discriminator. */
  private aliasedUnion(members: readonly { key: string; type: TypeExpr }[], context: FieldContext | undefined): AvroSchema {
    if (!context) throw new AvroTranslationError('a union with aliases must be the type of a record field');
    const recordName = `${toAvroName(context.owner.name)}${capitalize(context.field)}`;
    return this.named(recordName, (name, namespace) => ({
      type: 'record',
      name,
      namespace,
      fields: [
        ...members.map((m) => ({ name: m.key, type: ['null', this.schemaOf(m.type, context)], default: null })),
        {
          name: 'fieldDiscriminator',
          type: { type: 'enum', name: `${name}Discriminator`, namespace, symbols: members.map((m) => m.key) },
        },
      ],
    }));
  }

  private named(pegasusName: string, define: (name: string, namespace: string) => AvroComplexSchema): AvroSchema {
    const fullName = toAvroName(pegasusName);
    if (this.defined.has(fullName)) return fullName;
    // Registered before the fields are built so that a recursive record refers to itself by name.
    this.defined.add(fullName);
    const { name, namespace } = splitName(fullName);
    return define(name, namespace);
  }
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AvroTranslationError(`${where}: default must be an object`);
  return value as Record<string, unknown>;
}

/**
 * A model default (Rest.li JSON) as an Avro default: nested records complete, each union
 * holding a value of its first branch (the only one Avro allows in a default).
 */
export function avroDefault(value: unknown, type: TypeExpr, where: string): unknown {
  const t = deref(type);
  switch (t.kind) {
    case 'array':
      if (!Array.isArray(value)) throw new AvroTranslationError(`${where}: default must be a list`);
      return value.map((v, i) => avroDefault(v, t.items, `${where}[${i}]`));
    case 'map':
      return Object.fromEntries(Object.entries(asObject(value, where)).map(([k, v]) => [k, avroDefault(v, t.values, `${where}.${k}`)]));
    case 'record': {
      const obj = asObject(value, where);
      return Object.fromEntries(t.fields.map((f) => [f.name, fieldDefault(obj[f.name], f, `${where}.${f.name}`)]));
    }
    case 'union': {
      const [entry, ...rest] = Object.entries(asObject(value, where));
      const first = t.members[0];
      if (t.aliased || !entry || rest.length || entry[0] !== first.key) {
        throw new AvroTranslationError(`${where}: an Avro default can only hold the union's first member (${first.key})`);
      }
      return avroDefault(entry[1], first.type, where);
    }
    default:
      return value;
  }
}

function fieldDefault(value: unknown, field: FieldDef, where: string): unknown {
  if (value === undefined || value === null) {
    if (field.default !== undefined) return avroDefault(field.default, field.type, where);
    if (field.optional) return null;
    throw new AvroTranslationError(`${where}: the default has no value for this required field`);
  }
  if (field.optional && field.default === undefined) {
    throw new AvroTranslationError(`${where}: a default can only leave this optional field null (its first Avro branch)`);
  }
  return avroDefault(value, field.type, where);
}
