/** Encoders and decoders between the events of ./types and Avro binary. */
import type { Type, types } from 'avsc';
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
  encode(value: T): Buffer;
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

/** Binary codec over a conversion between the plain value and avsc's in-memory value. */
class BinaryCodec<T> implements EventCodec<T> {
  /** Per writer schema: its resolver, or null when avsc cannot resolve it to the reader. */
  private readonly resolvers = new WeakMap<Type, Resolver | null>();
  /** Where values are written before being copied out; grows to the largest value written, up to MAX_SCRATCH_BYTES. */
  private scratch = Buffer.allocUnsafe(INITIAL_SCRATCH_BYTES);

  constructor(
    readonly type: Type,
    private readonly toAvro: (value: T) => unknown,
    private readonly fromAvro: (value: unknown) => T,
  ) {}

  encode(value: T): Buffer {
    let avroValue: unknown;
    try {
      avroValue = this.toAvro(value);
    } catch (err) {
      throw new EventCodecError(`Cannot encode ${this.type.name}: ${shortMessage(err)}`);
    }
    const invalid = firstInvalid(this.type, avroValue);
    if (invalid) throw new EventCodecError(`Cannot encode ${this.type.name}: ${invalid}`);
    return this.written(avroValue);
  }

  /**
   * avsc's `toBuffer` writes into a 1 KB buffer of its own and, when the value is larger (a
   * change log with a schema is about 13 KB), writes it again into a new zero-filled one. Written
   * here into a buffer kept for the purpose, a value is written once and copied out.
   */
  private written(avroValue: unknown): Buffer {
    let end = this.type.encode(avroValue, this.scratch, 0);
    if (end < 0) {
      const needed = this.scratch.length - end;
      const buffer = Buffer.allocUnsafe(needed);
      end = this.type.encode(avroValue, buffer, 0);
      if (needed <= MAX_SCRATCH_BYTES) this.scratch = Buffer.allocUnsafe(Math.min(MAX_SCRATCH_BYTES, Math.max(needed, 2 * this.scratch.length)));
      return buffer.subarray(0, end);
    }
    return Buffer.from(this.scratch.subarray(0, end));
  }

  decode(payload: Buffer, writer?: Type): T {
    try {
      return this.fromAvro(this.read(payload, writer ?? this.type));
    } catch (err) {
      throw new EventCodecError(`Cannot decode ${this.type.name}: ${shortMessage(err)}`);
    }
  }

  private read(payload: Buffer, writer: Type): unknown {
    if (writer === this.type) return this.type.fromBuffer(payload);
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

function plainCodec<T>(type: Type): EventCodec<T> {
  return new BinaryCodec<T>(
    type,
    (value) => fromPlain(type, value),
    (value) => toPlain(type, value) as T,
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
