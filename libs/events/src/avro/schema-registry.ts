/**
 * An in-memory model of a Confluent schema registry: subjects hold numbered versions, each
 * naming a schema by a registry-wide id. Registering a schema already known (same canonical
 * form) gives back its id, and its existing version when the subject already holds it.
 */
import { Type } from 'avsc';

export interface RegisteredSchema {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  /** The schema text as first registered. */
  readonly schema: string;
}

/** Confluent's error code for a schema that does not parse. */
export const INVALID_SCHEMA_ERROR_CODE = 42201;

export class SchemaRegistryError extends Error {
  constructor(
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
  }
}

interface StoredSchema {
  readonly id: number;
  readonly text: string;
  readonly type: Type;
}

interface ParsedSchema {
  readonly text: string;
  readonly type: Type;
  readonly canonical: string;
}

/**
 * avsc's export of a schema keeps what decoding depends on (full names, fields, defaults,
 * order, aliases) and drops custom attributes; without its docs as well, the same schema
 * written differently compares equal.
 */
function withoutDocs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDocs);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { doc: _doc, ...node } = schema as Record<string, unknown>;
  if (Array.isArray(node.fields)) {
    node.fields = node.fields.map(({ doc: _fieldDoc, ...field }: Record<string, unknown>) => ({ ...field, type: withoutDocs(field.type) }));
  }
  if (node.items !== undefined) node.items = withoutDocs(node.items);
  if (node.values !== undefined) node.values = withoutDocs(node.values);
  return node;
}

function parseSchema(schema: string | object): ParsedSchema {
  const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
  try {
    const type = Type.forSchema(JSON.parse(text));
    return { text, type, canonical: JSON.stringify(withoutDocs(type.schema({ exportAttrs: true }))) };
  } catch (err) {
    throw new SchemaRegistryError(INVALID_SCHEMA_ERROR_CODE, `Invalid Avro schema: ${(err as Error).message}`);
  }
}

export class SchemaRegistryCore {
  private readonly byId = new Map<number, StoredSchema>();
  private readonly byCanonical = new Map<string, StoredSchema>();
  /** Versions of each subject; version n is at index n - 1. */
  private readonly bySubject = new Map<string, StoredSchema[]>();

  register(subject: string, schema: string | object): RegisteredSchema {
    const parsed = parseSchema(schema);
    let stored = this.byCanonical.get(parsed.canonical);
    if (!stored) {
      stored = { id: this.byId.size + 1, text: parsed.text, type: parsed.type };
      this.byId.set(stored.id, stored);
      this.byCanonical.set(parsed.canonical, stored);
    }
    const versions = this.bySubject.get(subject) ?? [];
    const index = versions.indexOf(stored);
    if (index >= 0) return entry(subject, index + 1, stored);
    versions.push(stored);
    this.bySubject.set(subject, versions);
    return entry(subject, versions.length, stored);
  }

  /** The version of `subject` holding this schema, if any. */
  lookup(subject: string, schema: string | object): RegisteredSchema | undefined {
    const stored = this.byCanonical.get(parseSchema(schema).canonical);
    const index = stored ? (this.bySubject.get(subject) ?? []).indexOf(stored) : -1;
    return stored && index >= 0 ? entry(subject, index + 1, stored) : undefined;
  }

  schemaById(id: number): string | undefined {
    return this.byId.get(id)?.text;
  }

  typeById(id: number): Type | undefined {
    return this.byId.get(id)?.type;
  }

  subjects(): string[] {
    return [...this.bySubject.keys()];
  }

  versions(subject: string): number[] {
    return (this.bySubject.get(subject) ?? []).map((_, i) => i + 1);
  }

  version(subject: string, version: number): RegisteredSchema | undefined {
    const stored = this.bySubject.get(subject)?.[version - 1];
    return stored && entry(subject, version, stored);
  }

  latest(subject: string): RegisteredSchema | undefined {
    const versions = this.bySubject.get(subject);
    return versions?.length ? entry(subject, versions.length, versions[versions.length - 1]) : undefined;
  }
}

function entry(subject: string, version: number, stored: StoredSchema): RegisteredSchema {
  return { subject, version, id: stored.id, schema: stored.text };
}
