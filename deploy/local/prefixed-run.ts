/**
 * One run (a CI pass, a test suite, a benchmark) on the real servers of deploy/local: every
 * topic, database and index name carries the run's prefix, so runs share the servers without
 * touching each other's data, and each removes its own afterwards (left behind, every run's
 * indices stay in Elasticsearch's heap until it trips its circuit breaker).
 *   node --import tsx deploy/local/prefixed-run.ts drop <prefix>
 */
import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';

export interface Backends {
  readonly kafka: string;
  readonly mongodb: string;
  readonly elasticsearch: string;
}

export function backendsFromEnv(env: NodeJS.ProcessEnv = process.env): Backends {
  return {
    kafka: env.KAFKA_BOOTSTRAP_SERVER ?? '127.0.0.1:9092',
    mongodb: env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017',
    elasticsearch: env.ELASTICSEARCH_URL ?? 'http://127.0.0.1:9200',
  };
}

/** The services' environment for one prefixed deployment. */
export function serviceEnv(backends: Backends, prefix: string): Record<string, string> {
  return {
    KAFKA_BOOTSTRAP_SERVER: backends.kafka,
    MONGODB_URI: backends.mongodb,
    ELASTICSEARCH_URL: backends.elasticsearch,
    KAFKA_TOPIC_PREFIX: `${prefix}_`,
    ELASTICSEARCH_INDEX_PREFIX: prefix,
    MONGODB_DATABASE: prefix,
  };
}

/** Deletes the run's topics, database and indices. */
export async function dropPrefixed(backends: Backends, prefix: string): Promise<void> {
  const kafka = new Kafka({ clientId: 'cairn-run-cleanup', brokers: backends.kafka.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}_`));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
  const mongo = await MongoClient.connect(backends.mongodb);
  try {
    await mongo.db(prefix).dropDatabase();
  } finally {
    await mongo.close();
  }
  await fetch(`${backends.elasticsearch}/${prefix}_*?expand_wildcards=all`, { method: 'DELETE' });
}

if (process.argv[1]?.endsWith('prefixed-run.ts')) {
  const [command, prefix] = process.argv.slice(2);
  if (command !== 'drop' || !prefix) {
    console.error('usage: prefixed-run.ts drop <prefix>');
    process.exit(2);
  }
  dropPrefixed(backendsFromEnv(), prefix).catch((error: unknown) => {
    console.error(`could not drop the run ${prefix}:`, error);
    process.exit(1);
  });
}
