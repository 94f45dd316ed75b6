/** How record values become Kafka message bytes and back. */
import { eventCodecs, FramedCodec, TOPIC_EVENTS, valueSubject, type EventCodec, type EventCodecs, type SchemaRegistryCore } from '@cairn/events';

export interface ValueCodec<T> {
  encode(value: T): Buffer;
  /** Throws when the bytes are not a value of this topic. */
  decode(bytes: Buffer): T;
}

/** The reference's topics, whose values are Avro in the Confluent wire format. */
export type EventTopic = keyof typeof TOPIC_EVENTS;

export type EventValue<K extends EventTopic> = EventCodecs[(typeof TOPIC_EVENTS)[K]] extends EventCodec<infer T> ? T : never;

export function isEventTopic(topic: string): topic is EventTopic {
  return Object.prototype.hasOwnProperty.call(TOPIC_EVENTS, topic);
}

/**
 * Avro values framed with the id of the registry's schema for the topic's subject. The ids
 * come from the shared event registry, which registers the same schemas in the same order in
 * every process, so a value written by one process names a schema every other one knows.
 */
export function avroValueCodec<K extends EventTopic>(topic: K, registry: SchemaRegistryCore): ValueCodec<EventValue<K>> {
  const codec = eventCodecs()[TOPIC_EVENTS[topic]] as EventCodec<EventValue<K>>;
  return new FramedCodec(codec, registry, valueSubject(topic));
}

/** Plain JSON values, for this service's internal topics. */
export function jsonValueCodec<T>(): ValueCodec<T> {
  return {
    encode: (value) => Buffer.from(JSON.stringify(value)),
    decode: (bytes) => JSON.parse(bytes.toString('utf8')) as T,
  };
}
