/** Encoders and decoders between the events of ./types and Avro binary. */
import { Type, type types } from 'avsc';
import type {
  AvroJsonSnapshot,
  FailedMetadataChangeProposal,
  MetadataChangeEvent,
  MetadataChangeLog,
  MetadataChangeProposal,
  PlatformEvent,
} from '../types';
import { eventSchemas, type EventSchemas } from './event-schemas';
import { toStrictAvroJson } from './avro-json';
import { fromPlain, toPlain } from './plain-values';

export class EventCodecError extends Error {}

export interface EventCodec<T> {
  /** The schema this service reads and writes the event with. */
  readonly type: Type;
  /** `prefix`: bytes written before the payload in the same buffer (the wire format's header). */
  encode(value: T, prefix?: Uint8Array): Buffer;
  /** Decodes Avro binary; `writer` is the schema the payload was written with, when it is not `type`. */
  decode(payload: Buffer, writer?: Type): T;
}

export interface EventCodecs {
  readonly mcp: EventCodec<MetadataChangeProposal>;
  readonly mcl: EventCodec<MetadataChangeLog>;
  readonly failedMcp: EventCodec<FailedMetadataChangeProposal>;
  readonly mce: EventCodec<MetadataChangeEvent>;
  readonly platformEvent: EventCodec<PlatformEvent>;
}

/** The first invalid value of an avsc value, as `path: value`, for an error message. */
function firstInvalid(type: Type, value: unknown): string | undefined {
  let found: string | undefined;
  type.isValid(value, {
    errorHook: (path: string[], any: unknown, t: Type) => {
      found ??= `${path.join('.') || '(root)'}: ${JSON.stringify(any) ?? 'undefined'} is not a valid ${t.toString()}`;
    },
  });
  return found;
}

type Resolver = ReturnType<Type['createResolver']>;

/** avsc quotes whole schemas in its messages; the MCE's runs to hundreds of kilobytes. */
function shortMessage(err: unknown): string {
  const message = (err as Error).message;
  return message.length > 400 ? `${message.slice(0, 400)}…` : message;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const INITIAL_SCRATCH_BYTES = 16 * 1024;
const MAX_SCRATCH_BYTES = 1024 * 1024;
const NO_PREFIX = new Uint8Array(0);

/**
 * Binary codec over a conversion between the plain value and avsc's in-memory value. `wire` writes
 * and reads payloads of the codec's own schema; it is `type` itself, or a twin whose binary form is
 * the same (see `withTextBytes`). Payloads of other writer schemas are resolved to `type`.
 */
class BinaryCodec<T> implements EventCodec<T> {
  /** Per writer schema: its resolver, or null when avsc cannot resolve it to the reader. */
  private readonly resolvers = new WeakMap<Type, Resolver | null>();
  /** Where values are written before being copied out; grows to the largest value written, up to MAX_SCRATCH_BYTES. */
  private scratch = Buffer.allocUnsafe(INITIAL_SCRATCH_BYTES);

  constructor(
    readonly type: Type,
    private readonly toAvro: (value: T) => unknown,
    /** `read`: the type the value was read with. */
    private readonly fromAvro: (value: unknown, read: Type) => T,
    private readonly wire: Type = type,
  ) {}

  encode(value: T, prefix: Uint8Array = NO_PREFIX): Buffer {
    let avroValue: unknown;
    try {
      avroValue = this.toAvro(value);
    } catch (err) {
      throw new EventCodecError(`Cannot encode ${this.type.name}: ${shortMessage(err)}`);
    }
    const invalid = firstInvalid(this.wire, avroValue);
    if (invalid) throw new EventCodecError(`Cannot encode ${this.type.name}: ${invalid}`);
    return this.written(avroValue, prefix);
  }

  /**
   * avsc's `toBuffer` writes into a 1 KB buffer of its own and, when the value is larger (a
   * change log with a schema is about 13 KB), writes it again into a new zero-filled one. Written
   * here into a buffer kept for the purpose, after the prefix, a value is written once and copied
   * out once.
   */
  private written(avroValue: unknown, prefix: Uint8Array): Buffer {
    let end = this.wire.encode(avroValue, this.scratch, prefix.length);
    if (end < 0) {
      const needed = this.scratch.length - end;
      const buffer = Buffer.allocUnsafe(needed);
      buffer.set(prefix);
      end = this.wire.encode(avroValue, buffer, prefix.length);
      if (needed <= MAX_SCRATCH_BYTES) this.scratch = Buffer.allocUnsafe(Math.min(MAX_SCRATCH_BYTES, Math.max(needed, 2 * this.scratch.length)));
      return buffer.subarray(0, end);
    }
    this.scratch.set(prefix);
    return Buffer.from(this.scratch.subarray(0, end));
  }

  decode(payload: Buffer, writer?: Type): T {
    try {
      if (writer === undefined || writer === this.type) return this.fromAvro(this.wire.fromBuffer(payload), this.wire);
      return this.fromAvro(this.read(payload, writer), this.type);
    } catch (err) {
      throw new EventCodecError(`Cannot decode ${this.type.name}: ${shortMessage(err)}`);
    }
  }

  /** A payload of another writer schema, as a value of `type`. */
  private read(payload: Buffer, writer: Type): unknown {
    const resolver = this.resolver(writer);
    if (resolver) return this.type.fromBuffer(payload, resolver);
    // avsc refuses a writer whose enums have symbols the reader lacks (a newer ChangeType)
    // even when the value uses none of them; through Avro-JSON only such a value fails.
    const json: unknown = JSON.parse(writer.toString(writer.fromBuffer(payload)));
    return this.type.fromString(JSON.stringify(toStrictAvroJson(this.type, json)));
  }

  private resolver(writer: Type): Resolver | null {
    let resolver = this.resolvers.get(writer);
    if (resolver === undefined) {
      try {
        resolver = this.type.createResolver(writer);
      } catch {
        resolver = null;
      }
      this.resolvers.set(writer, resolver);
    }
    return resolver;
  }
}

/**
 * The schema with each `bytes` type a `string`. Both are written as a length and the bytes, so the
 * twin writes and reads the very payloads of the schema; and since every bytes field of the events
 * holds UTF-8 text, it reads that text straight out of the payload and writes it straight in, where
 * `bytes` makes a Buffer of it first (a change log with a schema carries two of about 6 KB).
 */
function withTextBytes(type: Type): Type {
  const swap = (schema: unknown): unknown => {
    if (schema === 'bytes') return 'string';
    if (Array.isArray(schema)) return schema.map(swap);
    if (typeof schema !== 'object' || schema === null) return schema;
    const s = schema as { type: unknown; fields?: { type: unknown }[]; items?: unknown; values?: unknown; logicalType?: unknown };
    switch (s.type) {
      case 'record':
      case 'error':
        return { ...s, fields: s.fields!.map((field) => ({ ...field, type: swap(field.type) })) };
      case 'array':
        return { ...s, items: swap(s.items) };
      case 'map':
        return { ...s, values: swap(s.values) };
      case 'bytes':
        return s.logicalType === undefined ? { ...s, type: 'string' } : s;
      default:
        return s;
    }
  };
  return Type.forSchema(swap(type.schema()) as Parameters<typeof Type.forSchema>[0]);
}

function plainCodec<T>(type: Type): EventCodec<T> {
  const wire = withTextBytes(type);
  return new BinaryCodec<T>(
    type,
    (value) => fromPlain(wire, value),
    (value, read) => toPlain(read, value) as T,
    wire,
  );
}

/**
 * The snapshot stays in the Avro-JSON form of the reference's files, so that one reader
 * serves both; avsc converts it to and from its in-memory form. Encoding also takes the
 * bare union values those files contain; decoding gives strict Avro-JSON.
 */
function mceCodec(type: Type): EventCodec<MetadataChangeEvent> {
  const fieldType = (name: string): Type => (type as types.RecordType).field(name).type;
  const [auditHeader, snapshot, systemMetadata] = ['auditHeader', 'proposedSnapshot', 'systemMetadata'].map(fieldType);
  const aspectNames = new Map(
    (snapshot as types.WrappedUnionType).types.map((s) => {
      const aspects = ((s as types.RecordType).field('aspects').type as types.ArrayType).itemsType as types.WrappedUnionType;
      return [s.branchName, new Set(aspects.types.map((a) => a.branchName))];
    }),
  );
  /** Names an unknown snapshot or aspect record, the usual mistake, before avsc reports it less clearly. */
  const checkRecordNames = (proposed: AvroJsonSnapshot): void => {
    const names = Object.keys(proposed);
    const aspects = names.length === 1 ? aspectNames.get(names[0]) : undefined;
    if (!aspects) throw new EventCodecError(`proposedSnapshot must hold one snapshot of the schema, got ${names.join(', ') || 'none'}`);
    (proposed[names[0]].aspects ?? []).forEach((aspect, i) => {
      const records = Object.keys(aspect);
      if (records.length !== 1 || !aspects.has(records[0])) throw new EventCodecError(`aspect #${i}: ${records.join(', ')} is not an aspect record of ${names[0]}`);
    });
  };
  return new BinaryCodec<MetadataChangeEvent>(
    type,
    (mce) => {
      checkRecordNames(mce.proposedSnapshot);
      return {
        auditHeader: fromPlain(auditHeader, mce.auditHeader),
        proposedSnapshot: snapshot.fromString(JSON.stringify(toStrictAvroJson(snapshot, mce.proposedSnapshot))),
        proposedDelta: null,
        systemMetadata: fromPlain(systemMetadata, mce.systemMetadata),
      };
    },
    (value) => {
      const v = value as Record<string, unknown>;
      return withoutUndefined<MetadataChangeEvent>({
        auditHeader: toPlain(auditHeader, v.auditHeader) as MetadataChangeEvent['auditHeader'],
        proposedSnapshot: JSON.parse(snapshot.toString(v.proposedSnapshot)),
        systemMetadata: toPlain(systemMetadata, v.systemMetadata) as MetadataChangeEvent['systemMetadata'],
      });
    },
  );
}

export function createEventCodecs(schemas: EventSchemas): EventCodecs {
  return {
    mcp: plainCodec(schemas.mcp),
    mcl: plainCodec(schemas.mcl),
    failedMcp: plainCodec(schemas.failedMcp),
    mce: mceCodec(schemas.mce),
    platformEvent: plainCodec(schemas.platformEvent),
  };
}

let shared: EventCodecs | undefined;

/** Codecs over the schemas of the default folder, built once per process. */
export function eventCodecs(): EventCodecs {
  shared ??= createEventCodecs(eventSchemas());
  return shared;
}
