/**
 * The Kafka broker the Kafka adapter tests run against (`KAFKA_BOOTSTRAP_SERVER`, default the
 * broker that `deploy/local/start.sh kafka` starts). Without one the suites are skipped,
 * unless `CAIRN_REQUIRE_BACKENDS=true`, when a missing broker fails the run.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

export const KAFKA_BOOTSTRAP_SERVER = process.env.KAFKA_BOOTSTRAP_SERVER || '127.0.0.1:9092';

// Jest collects tests synchronously, so whether the broker answers is asked in a child process.
const PING = `
const { Kafka, logLevel } = require('kafkajs');
const admin = new Kafka({ brokers: process.argv[1].split(','), logLevel: logLevel.NOTHING, connectionTimeout: 3000, retry: { retries: 1 } }).admin();
admin.connect()
  .then(() => admin.describeCluster())
  .finally(() => admin.disconnect())
  .then(() => process.exit(0), (error) => { process.stderr.write(String(error && error.message)); process.exit(1); });
`;

function unreachableReason(): string | undefined {
  const ping = spawnSync(process.execPath, ['-e', PING, KAFKA_BOOTSTRAP_SERVER], { cwd: resolve(__dirname, '../..'), encoding: 'utf8', timeout: 15_000 });
  if (ping.status === 0) return undefined;
  return ping.error?.message ?? (ping.stderr.trim() || `exit ${String(ping.status)}`);
}

const unreachable = unreachableReason();
if (unreachable !== undefined && process.env.CAIRN_REQUIRE_BACKENDS === 'true') {
  throw new Error(`A Kafka broker is required (CAIRN_REQUIRE_BACKENDS=true) but ${KAFKA_BOOTSTRAP_SERVER} did not answer: ${unreachable}. Start one with: bash deploy/local/start.sh kafka`);
}
if (unreachable !== undefined) {
  console.warn(`Skipping the Kafka adapter tests: ${KAFKA_BOOTSTRAP_SERVER} did not answer (${unreachable}). Start one with \`bash deploy/local/start.sh kafka\` or set KAFKA_BOOTSTRAP_SERVER; CAIRN_REQUIRE_BACKENDS=true makes this a failure.`);
}

/** `describe` when the broker answers, `describe.skip` otherwise. */
export const describeWithKafka: jest.Describe = unreachable === undefined ? describe : describe.skip;

/** A topic prefix no other test run uses, so runs never see each other's records or groups. */
export function scratchTopicPrefix(): string {
  return `cairn_test_${randomBytes(6).toString('hex')}_`;
}

/**
 * Settings for a single-node broker: joins and rebalances settle fast, fetches return quickly
 * when idle (so stop() is quick), and a failed batch comes back after a short pause.
 */
export function testKafkaEnv(topicPrefix: string): Record<string, string> {
  return {
    KAFKA_BOOTSTRAP_SERVER,
    KAFKA_CLIENT_ID: 'cairn-test',
    KAFKA_TOPIC_PREFIX: topicPrefix,
    KAFKA_CONSUMER_SESSION_TIMEOUT_MS: '6000',
    KAFKA_CONSUMER_HEARTBEAT_INTERVAL_MS: '500',
    KAFKA_CONSUMER_REBALANCE_TIMEOUT_MS: '10000',
    KAFKA_CONSUMER_MAX_WAIT_MS: '100',
    KAFKA_CONSUMER_RETRY_DELAY_MS: '200',
  };
}
