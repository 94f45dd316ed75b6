/** An append-only, partitioned-by-key log of events with consumer groups (Kafka, or embedded). */

export interface LogRecord<T> {
  /** Position in the log, unique per topic (`<partition>:<offset>`); also the proposal id. */
  readonly id: string;
  readonly key: string;
  readonly value: T;
  readonly timestamp: number;
  /** Out-of-band facts about the record, e.g. the actor who proposed it (Kafka headers). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface NewRecord<T> {
  readonly key: string;
  readonly value: T;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface AppendOptions {
  /**
   * The records can be produced again (a full rebuild's change logs, which a rebuild that did not
   * end is run again to produce): a log may hand their values to its consumers in this process from
   * memory without storing them, and skip them after a restart. Kafka stores them like any others.
   */
  readonly reproducible?: boolean;
}

export interface Consumer {
  /** Resolves once the consumer has stopped and its last batch is committed. */
  stop(): Promise<void>;
}

/**
 * What a handler may answer instead of nothing: it has taken the batch, whose effects are durable
 * once `durable` resolves. The log may deliver the next batch meanwhile, so the handler prepares
 * one while the last is written.
 */
export interface BatchTaken {
  readonly durable: Promise<void>;
}

/** How a batch reached its handler. */
export interface BatchDelivery {
  /**
   * Inside the transaction that appended it (an `inline` consumer's batch, where the log can): what
   * the handler appends joins that transaction, so it must not wait for those appends (it answers a
   * BatchTaken instead), and a handler that throws has its writes undone and gets the batch again
   * the usual way.
   */
  readonly inline: boolean;
}

export type BatchHandler<T> = (batch: LogRecord<T>[], delivery?: BatchDelivery) => Promise<void | BatchTaken>;

export interface ConsumeOptions {
  readonly maxBatch?: number;
  /**
   * How long a batch smaller than `maxBatch` may wait for more records: for consumers whose cost
   * is mostly per batch (an index commit), fewer and larger batches under load, at that much latency.
   */
  readonly lingerMs?: number;
  /** A group with no committed position starts at the end of the log instead of its beginning. */
  readonly fromLatest?: boolean;
  /**
   * Where the log can, a consumer in the appending process that has caught up takes each append's
   * records inside the transaction that writes them, its position with them: the append, what the
   * handler writes to the same file and its position commit together (the embedded log). Elsewhere
   * the consumer reads as any other.
   */
  readonly inline?: boolean;
}

export interface EventLog<T> {
  readonly topic: string;
  /**
   * Appends records; resolves with their ids once they are durable. All records of one call
   * are appended atomically where the backend allows it (the embedded log does).
   */
  append(records: ReadonlyArray<NewRecord<T>>, options?: AppendOptions): Promise<string[]>;
  /**
   * Delivers records in order per key, at least once: a batch's position is committed only
   * after the handler resolves (and, when it answers a BatchTaken, once that batch is durable;
   * positions are committed in order). A handler that throws, or whose batch fails to become
   * durable, gets the batch again, with every batch after it (it must route poison records
   * elsewhere itself rather than throw for them).
   */
  consume(group: string, handler: BatchHandler<T>, options?: ConsumeOptions): Consumer;
  /** Records appended but not yet committed by the group. */
  lag(group: string): Promise<number>;
  /** The group's lag, and how many records it has committed in all (a count that only grows), for the rate it consumes at. */
  progress(group: string): Promise<ConsumerProgress>;
}

export interface ConsumerProgress {
  readonly lag: number;
  readonly committed: number;
}

/** What a producer holds of a log: its appends and how far its consumers are (a process or thread that consumes it elsewhere). */
export type LogProducer<T> = Pick<EventLog<T>, 'topic' | 'append' | 'lag' | 'progress'>;
