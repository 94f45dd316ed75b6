/** EventLog on one Kafka topic: keyed messages, values through a codec, records identified by `<partition>:<offset>`. */
import type { BatchHandler, ConsumeOptions, ConsumerProgress, EventLog, NewRecord } from '@cairn/ports';
import type { Admin, Message, PartitionMetadata } from 'kafkajs';
import { KafkaGroupConsumer } from './group-consumer';
import { keyPartition } from './key-partition';
import type { KafkaConnection } from './kafka-connection';
import { appendedIds, type OnUndecodable } from './kafka-records';
import { memoizeUntilFailure } from './memoize-until-failure';
import { sendableParts } from './sendable-parts';
import { SerialBatcher } from './serial-batcher';
import { ensureTopic } from './topic-setup';
import type { ValueCodec } from './value-codecs';

/**
 * The Kafka group of a port's consumer group on one topic. The port's groups are per log, as in the
 * embedded log; one Kafka group per topic keeps it so: kafkajs assigns a group's partitions
 * ignoring what each member subscribed to.
 */
export function kafkaGroupId(topic: string, group: string): string {
  return `${topic}.${group}`;
}

/** Over partitions: the end offset minus the group's committed offset (the log start where it has none), and the committed offsets. */
export async function groupProgress(admin: Admin, topic: string, groupId: string): Promise<ConsumerProgress> {
  const [ends, [committed]] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
  const committedOf = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  return ends.reduce(
    (sum, { partition, high, low }) => {
      const at = committedOf.get(partition) ?? -1;
      const position = at >= 0 ? at : Number(low);
      return { lag: sum.lag + Number(high) - position, committed: sum.committed + position };
    },
    { lag: 0, committed: 0 },
  );
}

/** Every record has a key (its entity's URN), which chooses its partition. */
interface KeyedMessage extends Message {
  readonly key: string;
}

export interface KafkaEventLogOptions {
  /** Gets the messages consumers cannot decode; by default they are logged and skipped. */
  readonly onUndecodable?: OnUndecodable;
}

export class KafkaEventLog<T> implements EventLog<T> {
  private readonly partitions = memoizeUntilFailure(() => this.createTopic());
  private readonly sends = new SerialBatcher<KeyedMessage, string>((messages) => this.send(messages));
  private readonly onUndecodable: OnUndecodable;

  constructor(
    private readonly connection: KafkaConnection,
    readonly topic: string,
    private readonly codec: ValueCodec<T>,
    options: KafkaEventLogOptions = {},
  ) {
    this.onUndecodable =
      options.onUndecodable ??
      ((record, error) => connection.logger.error('Skipped an undecodable message', { topic: record.topic, id: record.id, key: record.key, error: error.message }));
  }

  /** Creates the topic unless it exists. Appends and consumers call it themselves; calling it early surfaces a bad broker at startup. */
  async start(): Promise<void> {
    await this.partitions();
  }

  private async createTopic(): Promise<PartitionMetadata[]> {
    const { partitions, replicationFactor } = this.connection.settings;
    // The broker stamps each record as it appends it, so within a partition a later offset never
    // carries an earlier time: the store orders redelivered proposals by both (see proposalMark).
    return ensureTopic(await this.connection.admin(), {
      topic: this.topic,
      numPartitions: partitions,
      replicationFactor,
      configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
    });
  }

  /**
   * Resolves once all in-sync replicas have the records (idempotent producer, acks all). A call's
   * records go after those of earlier calls, in one send unless they exceed what one request may
   * carry; records of different partitions are not atomic together.
   */
  async append(records: ReadonlyArray<NewRecord<T>>): Promise<string[]> {
    if (records.length === 0) return [];
    // Encoded before queueing: a value the codec refuses fails its own call only.
    const messages = records.map((r) => ({ key: r.key, value: this.codec.encode(r.value), ...(r.headers ? { headers: { ...r.headers } } : {}) }));
    return this.sends.submit(messages);
  }

  /** Sends in order, in requests small enough for the broker (a request's records for a partition form one batch, bounded by its message.max.bytes). */
  private async send(messages: KeyedMessage[]): Promise<string[]> {
    const ids: string[] = [];
    for (const part of sendableParts(messages)) ids.push(...(await this.sendPart(part)));
    return ids;
  }

  private async sendPart(messages: KeyedMessage[]): Promise<string[]> {
    const partitionMetadata = await this.partitions();
    // Partitions are chosen here rather than by kafkajs, to know which offset belongs to which record.
    const partitions = messages.map((message) => keyPartition(message.key, partitionMetadata.length));
    const producer = await this.connection.producer();
    const sent = await producer.send({
      topic: this.topic,
      acks: -1,
      // The messages (made in `append`) have no partition; a literal key first (docs/performance.md, "Objects that begin with a spread").
      messages: messages.map((m, i) => ({ partition: partitions[i], ...m })),
    });
    return appendedIds(partitions, sent);
  }

  consume(group: string, handler: BatchHandler<T>, options?: ConsumeOptions): KafkaGroupConsumer<T> {
    return new KafkaGroupConsumer(
      this.connection.consumerClients(),
      { topic: this.topic, codec: this.codec, onUndecodable: this.onUndecodable, ready: () => this.start() },
      this.groupId(group),
      handler,
      options,
    );
  }

  private groupId(group: string): string {
    return kafkaGroupId(this.topic, group);
  }

  async lag(group: string): Promise<number> {
    return (await this.progress(group)).lag;
  }

  async progress(group: string): Promise<ConsumerProgress> {
    await this.partitions();
    return groupProgress(await this.connection.admin(), this.topic, this.groupId(group));
  }

}
