/**
 * A burst of proposals produced straight to Kafka as fast as the producer sends them, then timed
 * until the persister's group has committed the topic's end: the rate at which the pipeline
 * (Kafka, the persister, MongoDB, the change logs) persists proposals when it is not waiting on
 * HTTP clients, set against raw MongoDB upserts of the same rows in the same run.
 */
import { groupProgress, kafkaGroupId, quietIdleRequestQueues } from '@cairn/adapter-kafka';
import { PERSISTER_GROUP } from '@cairn/composition';
import { Kafka, logLevel } from 'kafkajs';
import type { CatalogClient } from '../client/catalog-client';
import { now, round, sleep } from '../stats';
import { untilSearchable } from './index-lag-probe';
import { mcpProducer, type KafkaCpuFigures, type McpTopicOptions } from './kafka-produce';
import type { ProposalSpool } from './proposal-spool';

export interface KafkaBurstOptions extends McpTopicOptions {
  readonly maxSeconds: number;
  /** Entities search should find once everything produced is indexed. */
  readonly expectSearchable: (entitiesSent: number) => number;
}

export interface KafkaBurstResult extends KafkaCpuFigures {
  readonly proposals: number;
  /** From the first send until Kafka acknowledged the last. */
  readonly producedSeconds: number;
  /** From the first send until the persister had committed every proposal. */
  readonly persistedSeconds: number;
  readonly persistedPerSecond: number;
  /** From the persister's last commit until search found every entity produced. */
  readonly allSearchableAfterMs?: number;
}

/** Proposals a send carries, and sends Kafka has not acknowledged yet. */
const SEND_SIZE = 500;
const SENDS_IN_FLIGHT = 4;
const POLL_MS = 50;

export async function runKafkaBurst(client: CatalogClient, feed: ProposalSpool, options: KafkaBurstOptions): Promise<KafkaBurstResult> {
  const producer = await mcpProducer(options);
  quietIdleRequestQueues();
  const admin = new Kafka({ clientId: 'cairn-bench-burst', brokers: options.brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const started = now();
    const deadline = started + options.maxSeconds * 1000;
    let produced = 0;
    const inFlight = new Set<Promise<void>>();
    for (let items = feed.take(SEND_SIZE); items.length > 0; items = feed.take(SEND_SIZE)) {
      if (inFlight.size >= SENDS_IN_FLIGHT) await Promise.race(inFlight);
      const sent: Promise<void> = producer.send(items).then(() => void inFlight.delete(sent));
      inFlight.add(sent);
      produced += items.length;
    }
    await Promise.all(inFlight);
    const producedAt = now();
    const groupId = kafkaGroupId(options.topic, PERSISTER_GROUP);
    // The persister commits a batch's offsets once its aspects and change logs are durable.
    while ((await groupProgress(admin, options.topic, groupId)).lag > 0) {
      if (now() > deadline) throw new Error(`the persister did not take the burst of ${produced} proposals within ${options.maxSeconds} s`);
      await sleep(POLL_MS);
    }
    const persistedAt = now();
    const allSearchableAfterMs = await untilSearchable(client, options.expectSearchable(feed.entities), persistedAt, 120_000);
    const persistedSeconds = (persistedAt - started) / 1000;
    return {
      proposals: produced,
      producedSeconds: round((producedAt - started) / 1000)!,
      persistedSeconds: round(persistedSeconds)!,
      persistedPerSecond: round(produced / persistedSeconds, 0)!,
      ...(allSearchableAfterMs !== undefined ? { allSearchableAfterMs: round(allSearchableAfterMs, 0) } : {}),
    };
  } finally {
    await producer.disconnect();
    await admin.disconnect();
  }
}

