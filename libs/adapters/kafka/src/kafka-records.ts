/** Kafka messages as the port's records, and the ids of appended records. */
import type { LogRecord } from '@cairn/ports';
import type { IHeaders, KafkaMessage, RecordMetadata } from 'kafkajs';
import type { ValueCodec } from './value-codecs';

/** A message whose value could not be decoded, as it was on the topic. */
export interface UndecodableRecord {
  readonly topic: string;
  /** `<partition>:<offset>`, as the record's id would have been. */
  readonly id: string;
  readonly partition: number;
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly timestamp: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Receives undecodable messages instead of the handler; the partition moves on once it resolves. */
export type OnUndecodable = (record: UndecodableRecord, error: Error) => void | Promise<void>;

export function recordId(partition: number, offset: string): string {
  return `${partition}:${offset}`;
}

/** Kafka allows repeated header names; like Java's `lastHeader`, the last one wins. */
function headerStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}

export function undecodableRecord(topic: string, partition: number, message: KafkaMessage): UndecodableRecord {
  return {
    topic,
    id: recordId(partition, message.offset),
    partition,
    offset: message.offset,
    key: message.key === null ? null : message.key.toString('utf8'),
    value: message.value,
    timestamp: Number(message.timestamp),
    headers: headerStrings(message.headers),
  };
}

/** Throws when the value is missing or the codec rejects it. */
export function decodeRecord<T>(raw: UndecodableRecord, codec: ValueCodec<T>): LogRecord<T> {
  if (raw.value === null) throw new Error(`Message ${raw.id} of ${raw.topic} has no value`);
  return { id: raw.id, key: raw.key ?? '', value: codec.decode(raw.value), timestamp: raw.timestamp, headers: raw.headers };
}

/**
 * Ids of sent messages in input order: the broker answers with the offset of the first
 * message per partition, and the messages of one partition follow it in the order sent.
 */
export function appendedIds(partitions: readonly number[], sent: readonly RecordMetadata[]): string[] {
  const next = new Map<number, bigint>();
  for (const m of sent) {
    if (m.baseOffset === undefined) throw new Error(`The broker gave no offset for partition ${m.partition} of ${m.topicName}`);
    next.set(m.partition, BigInt(m.baseOffset));
  }
  return partitions.map((partition) => {
    const offset = next.get(partition);
    if (offset === undefined) throw new Error(`The broker did not acknowledge partition ${partition}`);
    next.set(partition, offset + 1n);
    return recordId(partition, offset.toString());
  });
}
