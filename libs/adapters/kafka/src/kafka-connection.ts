/** The clients one process shares for all its topics: one admin, one idempotent producer, a consumer per group member. */
import { createLogger, type Logger } from '@cairn/core';
import { createEventSchemaRegistry, type SchemaRegistryCore } from '@cairn/events';
import type { Consumer } from '@cairn/ports';
import { Kafka, Partitioners, type Admin, type Producer } from 'kafkajs';
import type { GroupClients } from './group-consumer';
import { quietIdleRequestQueues } from './idle-request-queues';
import { KafkaEventLog, type KafkaEventLogOptions } from './kafka-event-log';
import { KAFKAJS_LOG_LEVEL, kafkaLogCreator } from './kafka-logging';
import { kafkaSettingsFromEnv, type KafkaEnv, type KafkaSettings } from './kafka-settings';
import { memoizeUntilFailure } from './memoize-until-failure';
import { avroValueCodec, isEventTopic, jsonValueCodec, type EventTopic, type EventValue } from './value-codecs';

export interface KafkaConnectionOptions {
  readonly logger?: Logger;
  /** The registry whose ids frame Avro values; by default the shared event registry. */
  readonly registry?: SchemaRegistryCore;
}

export class KafkaConnection {
  readonly kafka: Kafka;
  readonly logger: Logger;
  readonly registry: SchemaRegistryCore;
  /** Consumers not yet stopped, so close() can stop them. */
  private readonly running = new Set<Consumer>();
  /** Clients connected so far, so close() disconnects only those. */
  private readonly connected: Array<Admin | Producer> = [];

  constructor(
    readonly settings: KafkaSettings,
    options: KafkaConnectionOptions = {},
  ) {
    this.logger = options.logger ?? createLogger('kafka');
    this.registry = options.registry ?? createEventSchemaRegistry();
    quietIdleRequestQueues();
    this.kafka = new Kafka({
      clientId: settings.clientId,
      brokers: [...settings.brokers],
      logLevel: KAFKAJS_LOG_LEVEL,
      logCreator: kafkaLogCreator(this.logger),
    });
  }

  readonly admin = memoizeUntilFailure(async (): Promise<Admin> => {
    const admin = this.kafka.admin();
    await admin.connect();
    this.connected.push(admin);
    return admin;
  });

  readonly producer = memoizeUntilFailure(async (): Promise<Producer> => {
    const producer = this.kafka.producer({ idempotent: true, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    this.connected.push(producer);
    return producer;
  });

  topicName(name: string): string {
    return this.settings.topicPrefix + name;
  }

  /**
   * The log of a topic named without the prefix: the reference's topics carry Avro in the
   * Confluent wire format, any other topic JSON.
   */
  eventLog<K extends EventTopic>(topic: K, options?: KafkaEventLogOptions): KafkaEventLog<EventValue<K>>;
  eventLog<T>(topic: string, options?: KafkaEventLogOptions): KafkaEventLog<T>;
  eventLog(topic: string, options: KafkaEventLogOptions = {}): KafkaEventLog<unknown> {
    const codec = isEventTopic(topic) ? avroValueCodec(topic, this.registry) : jsonValueCodec();
    return new KafkaEventLog<unknown>(this, this.topicName(topic), codec, options);
  }

  /** What the group members of this connection's logs share. */
  consumerClients(): GroupClients {
    return { kafka: this.kafka, admin: this.admin, tuning: this.settings.consumer, logger: this.logger, running: this.running };
  }

  /** Stops the consumers still running (each commits its batch in flight), then disconnects. */
  async close(): Promise<void> {
    await Promise.all([...this.running].map((c) => c.stop()));
    await Promise.all(this.connected.splice(0).map((client) => client.disconnect()));
  }
}

/** A connection configured from environment-like config (`KAFKA_BOOTSTRAP_SERVER`, `KAFKA_CLIENT_ID`, `KAFKA_TOPIC_PREFIX`, ...). */
export function kafkaConnection(env: KafkaEnv = process.env, options?: KafkaConnectionOptions): KafkaConnection {
  return new KafkaConnection(kafkaSettingsFromEnv(env), options);
}
