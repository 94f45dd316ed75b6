/**
 * One consumer group member reading one topic, at least once: a batch's offsets are committed
 * only after its handler resolved (and the batch is durable, when the handler answers when it will be:
 * one batch at a time here), and a batch whose handler threw is fetched again.
 */
import type { Logger } from '@cairn/core';
import type { BatchHandler, Consumer, ConsumeOptions, LogRecord } from '@cairn/ports';
import type { Admin, Consumer as KafkaConsumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { decodeRecord, undecodableRecord, type OnUndecodable } from './kafka-records';
import type { ConsumerTuning } from './kafka-settings';
import { endOffsetsIfNoPosition } from './start-position';
import type { ValueCodec } from './value-codecs';

/**
 * A handler's round (the persister's: apply, publish, commit, then the next fetch) costs something
 * fixed however many records it carries. With batches of up to 1,500 rather than 500, and fetches
 * that may carry them (`MAX_FETCH_BYTES_PER_PARTITION`), a 10k Kafka burst persisted 1,365 to
 * 1,439 proposals/s against 1,228 to 1,338, alternating on the usual 2-core machine, the catalog's
 * CPU a proposal 468 to 483 µs against 496 to 539 (docs/performance-log.md).
 */
const DEFAULT_MAX_BATCH = 1500;
/** kafkajs's 1 MB default held a partition's fetch to about 500 of the bench's proposals (2 KB on average). */
const MAX_FETCH_BYTES_PER_PARTITION = 4 * 1024 * 1024;
/**
 * A lingering member asks the broker to hold each fetch until this much has arrived or the
 * linger has passed: about a full batch of change logs (1 to 3 KB each), so a busy topic is
 * answered at once and a trickle waits for company.
 */
const LINGER_MIN_BYTES = 1024 * 1024;

/** What a member needs to know about the topic it reads. */
export interface TopicSource<T> {
  readonly topic: string;
  readonly codec: ValueCodec<T>;
  readonly onUndecodable: OnUndecodable;
  /** Resolves once the topic exists. */
  ready(): Promise<void>;
}

export interface GroupClients {
  readonly kafka: Kafka;
  admin(): Promise<Admin>;
  readonly tuning: ConsumerTuning;
  readonly logger: Logger;
  /** Members not yet stopped; each adds itself and leaves on stop. */
  readonly running: Set<Consumer>;
}

function chunks<E>(items: readonly E[], size: number): E[][] {
  const out: E[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class KafkaGroupConsumer<T> implements Consumer {
  /** Resolves once the member has joined its group (and a new `fromLatest` group has its start pinned). */
  readonly ready: Promise<void>;
  private readonly consumer: KafkaConsumer;
  private readonly maxBatch: number;
  private stopped?: Promise<void>;

  constructor(
    private readonly clients: GroupClients,
    private readonly source: TopicSource<T>,
    readonly group: string,
    private readonly handler: BatchHandler<T>,
    options: ConsumeOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    const { tuning } = clients;
    this.consumer = clients.kafka.consumer({
      groupId: group,
      sessionTimeout: tuning.sessionTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      ...(options.lingerMs ? { minBytes: LINGER_MIN_BYTES, maxWaitTimeInMs: options.lingerMs } : { maxWaitTimeInMs: tuning.maxWaitTimeMs }),
      allowAutoTopicCreation: false,
      maxBytesPerPartition: MAX_FETCH_BYTES_PER_PARTITION,
    });
    clients.running.add(this);
    this.ready = this.start(options.fromLatest ?? false);
    this.ready.catch((err: Error) => clients.logger.error('Consumer could not start', { group, topic: source.topic, error: err.message }));
  }

  private async start(fromLatest: boolean): Promise<void> {
    const { topic } = this.source;
    await this.source.ready();
    const ends = fromLatest ? await endOffsetsIfNoPosition(await this.clients.admin(), this.group, topic) : [];
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [topic], fromBeginning: !fromLatest });
    if (ends.length) {
      // Seeks land before the first fetch; they are no-ops for partitions another member got.
      const stopListening = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        stopListening();
        for (const end of ends) this.consumer.seek({ topic, ...end });
      });
    }
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.clients.tuning.partitionsConcurrently,
      eachBatch: (payload) => this.onBatch(payload),
    });
    // Committed too, so a restart before the first batch starts from the same place; without
    // it the member still starts there, only a restart would not.
    if (ends.length) {
      await this.consumer.commitOffsets(ends.map((end) => ({ topic, ...end }))).catch((err: Error) =>
        this.clients.logger.warn('Could not commit the start position of a new group', { group: this.group, topic, error: err.message }),
      );
    }
  }

  /** Waits for the batch in flight to be handled and committed, then leaves the group. */
  stop(): Promise<void> {
    this.stopped ??= this.ready
      .catch(() => undefined)
      .then(() => this.consumer.disconnect())
      .finally(() => this.clients.running.delete(this));
    return this.stopped;
  }

  private async onBatch({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, pause, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    // A batch's commit must come after the start position's (see start()).
    await this.ready;
    for (const chunk of chunks(batch.messages, this.maxBatch)) {
      // Stopping, or a rebalance or seek made the rest of this batch stale: it is fetched again.
      if (!isRunning() || isStale()) return;
      try {
        await this.whileHeartbeating(heartbeat, () => this.deliver(partition, chunk));
      } catch (err) {
        this.clients.logger.warn('Batch handler failed; the batch will be delivered again', {
          group: this.group,
          topic,
          partition,
          offset: chunk[0].offset,
          error: (err as Error).message,
        });
        this.consumer.seek({ topic, partition, offset: chunk[0].offset });
        const resume = pause();
        setTimeout(resume, this.clients.tuning.retryDelayMs).unref();
        return;
      }
      const last = chunk[chunk.length - 1].offset;
      resolveOffset(last);
      await commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: (BigInt(last) + 1n).toString() }] }] });
    }
  }

  /** Undecodable messages go to their callback, the rest to the handler. */
  private async deliver(partition: number, messages: KafkaMessage[]): Promise<void> {
    const records: LogRecord<T>[] = [];
    for (const message of messages) {
      const raw = undecodableRecord(this.source.topic, partition, message);
      let record: LogRecord<T>;
      try {
        record = decodeRecord(raw, this.source.codec);
      } catch (err) {
        await this.source.onUndecodable(raw, err as Error);
        continue;
      }
      records.push(record);
    }
    if (records.length === 0) return;
    const taken = await this.handler(records);
    if (taken) await taken.durable;
  }

  /** A handler may outlast the session timeout; heartbeats keep the member in its group meanwhile. */
  private async whileHeartbeating(heartbeat: () => Promise<void>, work: () => Promise<void>): Promise<void> {
    const timer = setInterval(() => heartbeat().catch(() => undefined), this.clients.tuning.heartbeatIntervalMs);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
  }
}
