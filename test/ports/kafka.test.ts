/**
 * The Kafka adapter against a real broker: the EventLog contract (JSON and Avro values), then
 * what only Kafka has: partitions, start positions, the Confluent wire format on the topic,
 * handover between members and undecodable messages.
 */
import { createLogger } from '@cairn/core';
import { avroValueCodec, kafkaConnection, KafkaEventLog, type KafkaConnection, type UndecodableRecord } from '@cairn/adapter-kafka';
import { createEventSchemaRegistry, eventCodecs, frame, TOPICS, valueSubject, type MetadataChangeLog, type MetadataChangeProposal } from '@cairn/events';
import type { ConsumeOptions, LogRecord } from '@cairn/ports';
import { Type } from 'avsc';
import { Kafka, logLevel, Partitioners, type IHeaders } from 'kafkajs';
import { describeEventLogContract, waitFor } from './event-log.contract';
import { describeWithKafka, KAFKA_BOOTSTRAP_SERVER, scratchTopicPrefix, testKafkaEnv } from './kafka-broker';

const ACTOR = 'urn:li:corpuser:tester';
const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

const statusAspect = { value: '{"removed":false}', contentType: 'application/json' };
const mcp: MetadataChangeProposal = {
  auditHeader: { time: 1_690_000_000_000, server: 'gms-1', appName: 'cairn', messageId: Buffer.alloc(16, 7) },
  entityType: 'dataset',
  entityUrn: datasetUrn('db.avro'),
  entityKeyAspect: { value: '{"platform":"urn:li:dataPlatform:hive","name":"db.avro","origin":"PROD"}', contentType: 'application/json' },
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: statusAspect,
  systemMetadata: { lastObserved: 1_690_000_000_001, runId: 'run-1', properties: { a: 'b' } },
};
const minimalMcp: MetadataChangeProposal = { entityType: 'corpuser', entityUrn: 'urn:li:corpuser:avro', changeType: 'DELETE', aspectName: 'corpUserKey' };
const mcl: MetadataChangeLog = {
  entityType: 'dataset',
  entityUrn: datasetUrn('db.avro'),
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: { value: '{"removed":true}', contentType: 'application/json' },
  systemMetadata: { lastObserved: 1_690_000_000_002, runId: 'run-2' },
  previousAspectValue: statusAspect,
  previousSystemMetadata: { lastObserved: 1_690_000_000_001, runId: 'run-1' },
  created: { time: 1_690_000_000_002, actor: ACTOR },
};

interface Sample {
  readonly key: string;
  readonly seq: number;
}

async function eventually(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Gives a consumer time to deliver anything it should not. */
const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 500));

/** A consumer that keeps every batch it is handed. */
function collect<T>(log: KafkaEventLog<T>, group: string, options?: ConsumeOptions) {
  const batches: LogRecord<T>[][] = [];
  const consumer = log.consume(group, async (batch) => void batches.push(batch), options);
  const records = () => batches.flat();
  return { consumer, batches, records, received: (n: number) => eventually(() => records().length >= n, `${n} records in ${group}`) };
}

const partitionOf = (id: string) => Number(id.split(':')[0]);
const offsetOf = (id: string) => Number(id.split(':')[1]);

describeWithKafka('Kafka adapter on a real broker', () => {
  const prefix = scratchTopicPrefix();
  const raw = new Kafka({ clientId: 'cairn-test-raw', brokers: KAFKA_BOOTSTRAP_SERVER.split(','), logLevel: logLevel.NOTHING });
  let connection: KafkaConnection;
  let topicSeq = 0;
  /** A topic of its own for a test (the connection adds the run's prefix). */
  const freshLog = <T>(label: string) => connection.eventLog<T>(`${label}_${++topicSeq}`);

  beforeAll(() => {
    // The failures these tests provoke are logged as warnings; errors still show.
    connection = kafkaConnection(testKafkaEnv(prefix), { logger: createLogger('kafka', 'error') });
  });

  afterAll(async () => {
    await connection?.close();
    const admin = raw.admin();
    await admin.connect();
    try {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
      if (topics.length) await admin.deleteTopics({ topics });
      const { groups } = await admin.listGroups();
      const ours = groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
      if (ours.length) await admin.deleteGroups(ours);
    } finally {
      await admin.disconnect();
    }
  });

  /** Group joins take a few hundred ms; the contract's default wait is tuned for the embedded log. */
  const contractTimeoutMs = 20_000;

  describeEventLogContract<{ label: string }>('Kafka, JSON values', async () => ({ log: freshLog('contract_json'), close: async () => undefined }), {
    unstorable: { label: 'unstorable', big: 1n } as unknown as { label: string },
    timeoutMs: contractTimeoutMs,
  });

  describeEventLogContract<MetadataChangeProposal>(
    'Kafka, Avro proposals',
    async () => ({ log: new KafkaEventLog(connection, connection.topicName(`contract_avro_${++topicSeq}`), avroValueCodec(TOPICS.metadataChangeProposal, connection.registry)), close: async () => undefined }),
    {
      value: (label) => ({ ...minimalMcp, aspectName: label }),
      label: (value) => value.aspectName!,
      unstorable: { ...minimalMcp, changeType: 'NOT_A_CHANGE_TYPE' } as unknown as MetadataChangeProposal,
      timeoutMs: contractTimeoutMs,
    },
  );

  describe('partitions and start positions', () => {
    it('keeps each key in one partition, spreads keys over partitions, and counts lag over all of them', async () => {
      const log = freshLog<Sample>('keys');
      const keys = [0, 1, 2, 3, 4, 5].map((i) => `urn:li:corpuser:user${i}`);
      const batchOf = (from: number) => keys.flatMap((key) => [from, from + 1].map((seq) => ({ key, value: { key, seq } })));
      expect(await log.append([])).toEqual([]);
      const appended = [...batchOf(0), ...batchOf(2)];
      const ids = [...(await log.append(appended.slice(0, 12))), ...(await log.append(appended.slice(12)))];

      for (const key of keys) {
        const own = ids.filter((_, i) => appended[i].key === key);
        expect(new Set(own.map(partitionOf)).size).toBe(1);
        expect(own.map(offsetOf)).toEqual([...own.map(offsetOf)].sort((a, b) => a - b));
      }
      expect(new Set(ids.map(partitionOf)).size).toBeGreaterThan(1);
      expect(await log.lag('keys')).toBe(appended.length);

      const { consumer, records, received } = collect(log, 'keys');
      await received(appended.length);
      await consumer.stop();
      const byId = new Map(records().map((r) => [r.id, r]));
      ids.forEach((id, i) => expect(byId.get(id)).toMatchObject({ key: appended[i].key, value: appended[i].value }));
      for (const key of keys) expect(records().filter((r) => r.key === key).map((r) => r.value.seq)).toEqual([0, 1, 2, 3]);
      expect(await log.lag('keys')).toBe(0);
    });

    it('appends more in one call than one request may carry (the broker takes at most 1 MB per partition batch), in order', async () => {
      const log = freshLog<{ key: string; seq: number; pad: string }>('large');
      const key = 'urn:li:corpuser:large';
      const appended = Array.from({ length: 40 }, (_, seq) => ({ key, value: { key, seq, pad: 'x'.repeat(64 * 1024) } }));
      const ids = await log.append(appended);
      expect(ids.map(offsetOf)).toEqual([...ids.map(offsetOf)].sort((a, b) => a - b));
      const { consumer, records, received } = collect(log, 'large');
      await received(appended.length);
      await consumer.stop();
      expect(records().map((r) => r.value.seq)).toEqual(appended.map((a) => a.value.seq));
    });

    it('hands a backlog over in batches of up to 1,500 records, more than one default-sized fetch of a partition carries', async () => {
      const log = freshLog<{ key: string; seq: number; pad: string }>('backlog');
      const key = 'urn:li:corpuser:backlog';
      // 3,600 records of 2 KB on one partition: 7 MB, where kafkajs's default fetch takes 1 MB of a partition.
      const appended = Array.from({ length: 3600 }, (_, seq) => ({ key, value: { key, seq, pad: 'x'.repeat(2048) } }));
      await log.append(appended);
      const { consumer, batches, records, received } = collect(log, 'backlog');
      await received(appended.length);
      await consumer.stop();
      expect(records().map((r) => r.value.seq)).toEqual(appended.map((a) => a.value.seq));
      const sizes = batches.map((b) => b.length);
      expect(Math.max(...sizes)).toBe(1500);
      expect(sizes.length).toBeLessThanOrEqual(5);
    });

    it('has the broker stamp records as it appends them, so a later offset never carries an earlier time', async () => {
      const log = freshLog<Sample>('stamps');
      const key = 'urn:li:corpuser:stamps';
      const before = Date.now();
      await log.append([0, 1, 2].map((seq) => ({ key, value: { key, seq } })));
      const { consumer, records, received } = collect(log, 'stamps');
      await received(3);
      await consumer.stop();
      const stamps = records().map((r) => r.timestamp);
      expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
      expect(stamps[0]).toBeGreaterThanOrEqual(before - 1000);
      const admin = await connection.admin();
      const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: log.topic, configNames: ['message.timestamp.type'] }] });
      expect(resources[0]?.configEntries.find((e) => e.configName === 'message.timestamp.type')?.configValue).toBe('LogAppendTime');
    });

    it('starts a new fromLatest group at the end of the log, and keeps that start once committed', async () => {
      const log = freshLog<Sample>('latest');
      const key = 'urn:li:corpuser:latest';
      await log.append([0, 1, 2].map((seq) => ({ key, value: { key, seq } })));

      // Stopped before it saw any record: its start position is committed all the same.
      const idle = log.consume('latest', async () => undefined, { fromLatest: true });
      await idle.ready;
      await idle.stop();
      expect(await log.lag('latest')).toBe(0);

      const appended = await log.append([3, 4].map((seq) => ({ key, value: { key, seq } })));
      const { consumer, records, received } = collect(log, 'latest', { fromLatest: true });
      await received(2);
      await quietPeriod();
      await consumer.stop();
      expect(records().map((r) => r.id)).toEqual(appended);
    });

    it('delivers to a fromLatest member what is appended once it is ready', async () => {
      const log = freshLog<Sample>('ready');
      const key = 'urn:li:corpuser:ready';
      await log.append([{ key, value: { key, seq: 0 } }]);
      const { consumer, records, received } = collect(log, 'ready', { fromLatest: true });
      await consumer.ready;
      const appended = await log.append([{ key, value: { key, seq: 1 } }]);
      await received(1);
      await quietPeriod();
      await consumer.stop();
      expect(records().map((r) => r.id)).toEqual(appended);
    });
  });

  describe('Avro events in the Confluent wire format', () => {
    it('round trips proposals and change logs through their topics', async () => {
      const proposals = connection.eventLog(TOPICS.metadataChangeProposal);
      const changeLog = connection.eventLog(TOPICS.metadataChangeLogVersioned);
      expect(proposals.topic).toBe(`${prefix}MetadataChangeProposal_v1`);
      const proposalIds = await proposals.append([mcp, minimalMcp].map((value) => ({ key: value.entityUrn!, value, headers: { actor: ACTOR } })));
      const [changeLogId] = await changeLog.append([{ key: mcl.entityUrn!, value: mcl }]);

      // One group name on two logs, as the port allows.
      const readProposals = collect(proposals, 'avro-round-trip');
      const readChangeLog = collect(changeLog, 'avro-round-trip');
      await Promise.all([readProposals.received(2), readChangeLog.received(1)]);
      await Promise.all([readProposals.consumer.stop(), readChangeLog.consumer.stop()]);
      const byId = new Map(readProposals.records().map((r) => [r.id, r.value]));
      expect(byId.get(proposalIds[0])).toEqual(mcp);
      expect(byId.get(proposalIds[1])).toEqual(minimalMcp);
      expect(readChangeLog.records()).toEqual([expect.objectContaining({ id: changeLogId, key: mcl.entityUrn, value: mcl })]);
    });

    it('writes Confluent-framed Avro under the shared registry schema id, keyed by the entity URN, with headers', async () => {
      const proposals = connection.eventLog(TOPICS.metadataChangeProposal);
      const urn = datasetUrn('db.framed');
      const value: MetadataChangeProposal = { ...mcp, entityUrn: urn };
      await proposals.append([{ key: urn, value, headers: { actor: ACTOR } }]);

      // What another process sees: a plain client and a registry of its own.
      const registry = createEventSchemaRegistry();
      const schemaId = registry.latest(valueSubject(TOPICS.metadataChangeProposal))!.id;
      const seen: { key: string | undefined; value: Buffer; headers: IHeaders | undefined }[] = [];
      const plain = raw.consumer({ groupId: `${prefix}raw-reader`, sessionTimeout: 6000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
      await plain.connect();
      await plain.subscribe({ topics: [proposals.topic], fromBeginning: true });
      await plain.run({ eachMessage: async ({ message }) => void seen.push({ key: message.key?.toString(), value: message.value!, headers: message.headers }) });
      try {
        await eventually(() => seen.some((m) => m.key === urn), 'the framed message');
      } finally {
        await plain.disconnect();
      }
      const message = seen.find((m) => m.key === urn)!;
      expect(message.value[0]).toBe(0);
      expect(message.value.readUInt32BE(1)).toBe(schemaId);
      expect(message.headers?.actor?.toString()).toBe(ACTOR);
      const payload = message.value.subarray(5);
      const writer = Type.forSchema(JSON.parse(registry.schemaById(schemaId)!));
      expect(writer.fromBuffer(payload)).toMatchObject({ entityUrn: urn, aspectName: 'status', changeType: 'UPSERT' });
      expect(eventCodecs().mcp.decode(payload, registry.typeById(schemaId))).toEqual(value);
      for (const record of seen) expect(record.key).toMatch(/^urn:li:/);
    });
  });

  describe('at-least-once delivery', () => {
    it('redelivers to the next member of the group what a stopped member had not committed', async () => {
      const log = freshLog<Sample>('handover');
      const key = 'urn:li:corpuser:handover';
      const ids = await log.append([0, 1, 2].map((seq) => ({ key, value: { key, seq } })));
      let failInFlight!: (err: Error) => void;
      let inFlight = false;
      const first = log.consume('handover', (batch) => {
        inFlight = batch.length > 0;
        return new Promise((_, reject) => (failInFlight = reject));
      });
      await eventually(() => inFlight, 'the first delivery');
      const stopped = first.stop();
      failInFlight(new Error('process dying'));
      await stopped;
      expect(await log.lag('handover')).toBe(3);

      const second = collect(log, 'handover');
      await second.received(3);
      await second.consumer.stop();
      expect(second.records().map((r) => r.id)).toEqual(ids);
      expect(await log.lag('handover')).toBe(0);
    });

  });

  describe('undecodable messages', () => {
    it('go to onUndecodable while the messages after them are still delivered', async () => {
      const undecodable: { record: UndecodableRecord; error: Error }[] = [];
      const proposals = connection.eventLog(TOPICS.metadataChangeProposal, { onUndecodable: (record, error) => void undecodable.push({ record, error }) });
      const urn = datasetUrn('db.poison');
      const mcpSchemaId = createEventSchemaRegistry().latest(valueSubject(TOPICS.metadataChangeProposal))!.id;
      const poison = [
        Buffer.from('{"entityType":"dataset"}'), // JSON, not the wire format
        frame(9999, eventCodecs().mcp.encode(minimalMcp)), // a schema id no registry has
        frame(mcpSchemaId, Buffer.from([0x02, 0xff])), // truncated Avro
      ];
      const producer = raw.producer({ createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      try {
        await producer.send({ topic: proposals.topic, messages: poison.map((value) => ({ key: urn, value })) });
      } finally {
        await producer.disconnect();
      }
      const [goodId] = await proposals.append([{ key: urn, value: { ...minimalMcp, entityUrn: urn } }]);

      const { consumer, records } = collect(proposals, 'poison');
      await eventually(() => records().some((r) => r.id === goodId), 'the message after the poison');
      // Committed past the poison (the other partitions hold the other tests' proposals).
      await waitFor(async () => (await proposals.lag('poison')) === 0, 20_000, 'the commit past the poison');
      await consumer.stop();
      const ours = undecodable.filter((u) => u.record.key === urn);
      expect(ours.map((u) => u.record.value)).toEqual(poison);
      expect(ours.map((u) => u.error.message)).toEqual([expect.stringMatching(/magic byte/), expect.stringMatching(/9999/), expect.stringMatching(/Cannot decode/)]);
      for (const { record } of ours) {
        expect(record).toMatchObject({ topic: proposals.topic, partition: partitionOf(goodId) });
        expect(record.id).toBe(`${record.partition}:${record.offset}`);
        expect(offsetOf(record.id)).toBeLessThan(offsetOf(goodId));
      }
      expect(records().find((r) => r.id === goodId)?.value).toEqual({ ...minimalMcp, entityUrn: urn });
    });
  });
});
