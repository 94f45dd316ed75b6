/** Connection and tuning settings of the Kafka adapter, read from environment-like config. */

export interface ConsumerTuning {
  /** How long the broker waits without a heartbeat before it evicts a member. */
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /** How long a rebalance waits for members to rejoin (they rejoin between batches). */
  readonly rebalanceTimeoutMs: number;
  /**
   * Longest a fetch waits for new records; also bounds how long stop() waits for an idle fetch. A
   * member given `lingerMs` waits that long instead (group-consumer.ts).
   */
  readonly maxWaitTimeMs: number;
  /** Pause before a batch whose handler threw is fetched again. */
  readonly retryDelayMs: number;
  /**
   * Partitions whose batches a member handles at once (each partition's still in order): a
   * handler that waits on a store or an index does not hold up the other partitions.
   */
  readonly partitionsConcurrently: number;
}

export interface KafkaSettings {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Prepended to every topic name (and so to group ids), so several deployments can share a cluster. */
  readonly topicPrefix: string;
  /** Partitions of the topics this adapter creates. */
  readonly partitions: number;
  /** Replicas of the topics this adapter creates; -1 takes the broker's default. */
  readonly replicationFactor: number;
  readonly consumer: ConsumerTuning;
}

export type KafkaEnv = Readonly<Record<string, string | undefined>>;

function int(env: KafkaEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

/**
 * The defaults suit a small cluster: a dead member is noticed within 10 s and a rebalance
 * settles within about a second, instead of kafkajs's 30 s / 3 s.
 */
export function kafkaSettingsFromEnv(env: KafkaEnv = process.env): KafkaSettings {
  const partitions = int(env, 'KAFKA_TOPIC_PARTITIONS', 3);
  if (partitions < 1) throw new Error(`KAFKA_TOPIC_PARTITIONS must be at least 1, got ${partitions}`);
  return {
    brokers: (env.KAFKA_BOOTSTRAP_SERVER || '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean),
    clientId: env.KAFKA_CLIENT_ID || 'cairn',
    topicPrefix: env.KAFKA_TOPIC_PREFIX ?? '',
    partitions,
    replicationFactor: int(env, 'KAFKA_TOPIC_REPLICATION_FACTOR', -1),
    consumer: {
      sessionTimeoutMs: int(env, 'KAFKA_CONSUMER_SESSION_TIMEOUT_MS', 10_000),
      heartbeatIntervalMs: int(env, 'KAFKA_CONSUMER_HEARTBEAT_INTERVAL_MS', 1_000),
      rebalanceTimeoutMs: int(env, 'KAFKA_CONSUMER_REBALANCE_TIMEOUT_MS', 30_000),
      maxWaitTimeMs: int(env, 'KAFKA_CONSUMER_MAX_WAIT_MS', 500),
      retryDelayMs: int(env, 'KAFKA_CONSUMER_RETRY_DELAY_MS', 500),
      partitionsConcurrently: Math.max(1, int(env, 'KAFKA_CONSUMER_PARTITIONS_CONCURRENTLY', partitions)),
    },
  };
}
