/**
 * Proposals produced straight to Kafka by a plain Avro producer, as any producer may: the
 * reference's MCP schema registered with gms's schema registry, Confluent-framed values, the URN
 * as key, at a steady rate. Figures: the rate Kafka acknowledged, and index lag from those acks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { quietIdleRequestQueues, sendableParts } from '@cairn/adapter-kafka';
import { frame } from '@cairn/events';
import type { CatalogClient } from '../client/catalog-client';
import { REPO_ROOT } from '../deployments/service-process';
import { now, round, sleep } from '../stats';
import { IndexLagProbe, untilSearchable } from './index-lag-probe';
import type { ProposalSpool, SpooledProposal, SpoolSerializer } from './proposal-spool';
import type { PhaseLoad } from '../deployments/deployment';

export interface KafkaProduceOptions {
  readonly brokers: string;
  readonly topic: string;
  readonly registryUrl: string;
  /** The registry's Authorization header (registering a schema is an ingestion privilege). */
  readonly authorization?: string;
  readonly rate: number;
  readonly maxSeconds: number;
  /** Entities search should find once everything produced is indexed. */
  readonly expectSearchable: (entitiesSent: number) => number;
}

/** What the runner adds to a Kafka scenario's result. */
export interface KafkaCpuFigures extends PhaseLoad {
  /** The catalog's CPU time per proposal (µs). */
  serverCpuUsPerProposal?: number;
  /** The bench's own CPU time per proposal (µs): making, encoding and producing them, and the probes. */
  generatorCpuUsPerProposal?: number;
}

export interface KafkaProduceResult extends KafkaCpuFigures {
  readonly proposals: number;
  readonly seconds: number;
  readonly proposalsPerSecond: number;
  readonly indexLagMs: Record<string, number | undefined>;
  readonly lagMarkersNeverFound: number;
  readonly allSearchableAfterMs?: number;
}

const TICK_MS = 20;

async function registerSchema(options: McpTopicOptions, schema: string): Promise<number> {
  const res = await fetch(`${options.registryUrl}/subjects/${options.topic}-value/versions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json', ...(options.authorization ? { Authorization: options.authorization } : {}) },
    body: JSON.stringify({ schema }),
  });
  if (!res.ok) throw new Error(`schema registration failed: ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

/** Options naming where proposals go, shared by the steady rate and the burst. */
export type McpTopicOptions = Pick<KafkaProduceOptions, 'brokers' | 'topic' | 'registryUrl' | 'authorization'>;

/**
 * Registers the reference's MCP schema with the registry and answers how a proposal is framed for
 * the topic (Confluent framing, base64 so that a spool's line holds it): done while spooling,
 * before the clock starts.
 */
export async function mcpSpoolSerializer(options: McpTopicOptions): Promise<SpoolSerializer> {
  const avsc = readFileSync(join(REPO_ROOT, 'schemas/avro/MetadataChangeProposal.avsc'), 'utf8');
  const schemaId = await registerSchema(options, avsc);
  const type = Type.forSchema(JSON.parse(avsc));
  return (p) =>
    frame(
      schemaId,
      type.toBuffer({
        auditHeader: null,
        entityType: p.entityType,
        entityUrn: p.entityUrn ?? null,
        entityKeyAspect: null,
        changeType: p.changeType,
        aspectName: p.aspectName ?? null,
        aspect: p.aspect ? { value: Buffer.from(p.aspect.value), contentType: p.aspect.contentType } : null,
        systemMetadata: null,
      }),
    ).toString('base64');
}

export interface McpProducer {
  /** Resolves once Kafka acknowledged every one of them. */
  send(items: readonly SpooledProposal[]): Promise<void>;
  disconnect(): Promise<void>;
}

/** A plain producer of proposals spooled by `mcpSpoolSerializer`: their framed Avro values, the URN as key. */
export async function mcpProducer(options: McpTopicOptions): Promise<McpProducer> {
  // The load generator shares the catalog's cores: its idle connections should not spin either.
  quietIdleRequestQueues();
  const kafka = new Kafka({ clientId: 'cairn-bench-producer', brokers: options.brokers.split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  return {
    // A tick that came late carries more than one request may (MESSAGE_TOO_LARGE): sent in parts, in order.
    send: async (items) => {
      const messages = items.map((i) => ({ key: i.entityUrn, value: Buffer.from(i.body, 'base64') }));
      for (const part of sendableParts(messages)) await producer.send({ topic: options.topic, messages: part });
    },
    disconnect: () => producer.disconnect(),
  };
}

export async function runKafkaProduce(client: CatalogClient, feed: ProposalSpool, options: KafkaProduceOptions): Promise<KafkaProduceResult> {
  const producer = await mcpProducer(options);
  const probe = new IndexLagProbe(client);
  probe.start();
  let produced = 0;
  const started = now();
  const deadline = started + options.maxSeconds * 1000;
  const inFlight: Promise<void>[] = [];
  try {
    for (let tick = 1; now() < deadline; tick++) {
      const due = Math.floor((options.rate * (now() - started)) / 1000) - produced;
      const items: SpooledProposal[] = due > 0 ? feed.take(due) : [];
      if (due > 0 && items.length === 0) break;
      if (items.length) {
        produced += items.length;
        inFlight.push(
          producer.send(items).then(() => {
            for (const i of items) if (i.createsEntity) probe.acknowledged(i.entityUrn);
          }),
        );
      }
      await sleep(Math.max(0, started + tick * TICK_MS - now()));
    }
    await Promise.all(inFlight);
  } finally {
    await producer.disconnect();
  }
  const lastAck = now();
  const seconds = (lastAck - started) / 1000;
  const neverFound = await probe.finish(120_000);
  const allSearchableAfterMs = await untilSearchable(client, options.expectSearchable(feed.entities), lastAck, 120_000);
  return {
    proposals: produced,
    seconds: round(seconds)!,
    proposalsPerSecond: round(produced / seconds, 0)!,
    indexLagMs: probe.lags.summary([50, 99]),
    lagMarkersNeverFound: neverFound,
    ...(allSearchableAfterMs !== undefined ? { allSearchableAfterMs: round(allSearchableAfterMs, 0) } : {}),
  };
}
