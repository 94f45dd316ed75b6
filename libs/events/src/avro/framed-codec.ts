/** Kafka values of one topic: an event codec behind the Confluent wire format. */
import type { EventCodec } from './codecs';
import type { SchemaRegistryCore } from './schema-registry';
import { frameHeader, unframe, WireFormatError } from './wire-format';

export class FramedCodec<T> {
  /** The id of this service's schema for the subject, under which it frames what it writes. */
  readonly schemaId: number;
  /** The wire format's header of every value this codec writes. */
  private readonly header: Buffer;

  constructor(
    private readonly codec: EventCodec<T>,
    private readonly registry: SchemaRegistryCore,
    subject: string,
  ) {
    this.schemaId = registry.register(subject, codec.type.schema({ exportAttrs: true })).id;
    this.header = frameHeader(this.schemaId);
  }

  encode(value: T): Buffer {
    return this.codec.encode(value, this.header);
  }

  /** Decodes a value written with any schema of the registry that resolves to this codec's schema. */
  decode(message: Uint8Array): T {
    const { schemaId, payload } = unframe(message);
    const writer = schemaId === this.schemaId ? this.codec.type : this.registry.typeById(schemaId);
    if (!writer) throw new WireFormatError(`Schema id ${schemaId} is not in the schema registry`);
    return this.codec.decode(payload, writer);
  }
}
