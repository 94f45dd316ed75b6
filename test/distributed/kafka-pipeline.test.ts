/**
 * The distributed pipeline on the real backends, with its services as separate processes:
 * proposals produced straight to Kafka by a plain Avro producer using gms's schema registry are
 * all persisted and indexed; kill -9 of mce-consumer or mae-consumer mid-stream loses nothing
 * and creates no duplicate versions; a malformed message lands on the failed-proposal topic
 * while later messages are still applied. Runs when CAIRN_REQUIRE_BACKENDS=true (CI) or
 * CAIRN_DISTRIBUTED_TESTS=true.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { frame, unframe } from '@cairn/events';
import { backendsFromEnv, dropPrefixed, serviceEnv } from '../../deploy/local/prefixed-run';
import { killHard, REPO_ROOT, startNamedService, type ServiceProcess } from '../support/process';

const enabled = process.env.CAIRN_REQUIRE_BACKENDS === 'true' || process.env.CAIRN_DISTRIBUTED_TESTS === 'true';
const suite = enabled ? describe : describe.skip;

const RUN = `dist${Date.now().toString(36)}`;
const BACKENDS = backendsFromEnv();
const ENV = {
  ...serviceEnv(BACKENDS, RUN),
  LOG_LEVEL: 'warn',
  // This suite is about the pipeline; gms's authentication (on by default) has its own tests.
  METADATA_SERVICE_AUTH_ENABLED: 'false',
};
const TOPIC = `${RUN}_MetadataChangeProposal_v1`;
const OWNER = 'urn:li:corpuser:kafka_owner';
const COUNT = 1000;

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${RUN}.t${i},PROD)`;

suite('the distributed pipeline on Kafka, MongoDB and Elasticsearch', () => {
  const running = new Map<string, ServiceProcess>();
  const kafka = new Kafka({ clientId: 'plain-avro-producer', brokers: BACKENDS.kafka.split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  let gms: ServiceProcess;

  const start = async (name: string) => {
    const p = await startNamedService(name, ENV, 120_000);
    running.set(name, p);
    return p;
  };

  beforeAll(async () => {
    gms = await start('gms');
    await start('mce-consumer');
    await start('mae-consumer');
    await producer.connect();
  }, 300_000);

  afterAll(async () => {
    await producer.disconnect();
    await Promise.all([...running.values()].map(killHard));
    await dropPrefixed(BACKENDS, RUN);
  }, 120_000);

  const get = async (path: string) => (await fetch(`${gms.baseUrl}${path}`)).json() as Promise<any>;

  it('applies 1,000 proposals produced straight to Kafka, across a kill -9 of each consumer, without duplicate versions', async () => {
    // A plain Avro producer: registers the reference's MCP schema with gms's registry, frames its own bytes.
    const avsc = readFileSync(join(REPO_ROOT, 'schemas/avro/MetadataChangeProposal.avsc'), 'utf8');
    const reg = await fetch(`${gms.baseUrl}/schema-registry/api/subjects/${TOPIC}-value/versions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schema: avsc }),
    });
    const { id } = (await reg.json()) as { id: number };
    expect(id).toEqual(expect.any(Number));
    const type = Type.forSchema(JSON.parse(avsc));
    const message = (i: number) => ({
      key: urnOf(i),
      value: frame(
        id,
        type.toBuffer({
          auditHeader: null,
          entityType: 'dataset',
          entityUrn: urnOf(i),
          entityKeyAspect: null,
          changeType: 'UPSERT',
          aspectName: 'ownership',
          aspect: { value: Buffer.from(JSON.stringify({ owners: [{ owner: OWNER, type: 'DATAOWNER' }], lastModified: { time: i, actor: OWNER } })), contentType: 'application/json' },
          systemMetadata: null,
        }),
      ),
    });
    const send = (from: number, to: number) => producer.send({ topic: TOPIC, messages: Array.from({ length: to - from }, (_, k) => message(from + k)) });

    await send(0, 400);
    await killHard(running.get('mce-consumer')!);
    await send(400, 700);
    await start('mce-consumer');
    await killHard(running.get('mae-consumer')!);
    await send(700, COUNT);
    await start('mae-consumer');

    // FerretDB's SQLite handler is the slow part (no secondary indexes): give a loaded machine time.
    const deadline = Date.now() + 300_000;
    let applied = 0;
    while (Date.now() < deadline) {
      const counted = await fetch(`${gms.baseUrl}/aspects?action=getCount`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ aspect: 'ownership', urnLike: `%${RUN}.t%` }) });
      applied = ((await counted.json()) as { value: number }).value;
      if (applied >= COUNT) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(applied).toBe(COUNT);
    for (const i of [0, 399, 400, 699, 700, COUNT - 1]) {
      const latest = await get(`/aspects/${encodeURIComponent(urnOf(i))}?aspect=ownership&version=0`);
      expect(latest.aspect['com.linkedin.common.Ownership'].lastModified.time).toBe(i);
      // One proposal per aspect: any redelivery must not have made a second version.
      expect((await fetch(`${gms.baseUrl}/aspects/${encodeURIComponent(urnOf(i))}?aspect=ownership&version=1`)).status).toBe(404);
    }

    // The graph index caught up across the mae-consumer crash: every dataset has its OwnedBy edge.
    const indexDeadline = Date.now() + 120_000;
    let total = 0;
    while (Date.now() < indexDeadline) {
      total = (await get(`/relationships?urn=${encodeURIComponent(OWNER)}&direction=INCOMING&types=OwnedBy&count=0`)).total;
      if (total >= COUNT) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(total).toBe(COUNT);
  }, 600_000);

  it('sends a malformed message to the failed-proposal topic and still applies the next one', async () => {
    const good = `urn:li:tag:${RUN}_after_poison`;
    const reg = await fetch(`${gms.baseUrl}/schema-registry/api/subjects/${TOPIC}-value/versions/latest`);
    const { id, schema } = (await reg.json()) as { id: number; schema: string };
    const type = Type.forSchema(JSON.parse(schema));
    await producer.send({
      topic: TOPIC,
      messages: [
        { key: `urn:li:tag:${RUN}_poison`, value: Buffer.from('definitely not avro') },
        {
          key: good,
          value: frame(
            id,
            type.toBuffer({ auditHeader: null, entityType: 'tag', entityUrn: good, entityKeyAspect: null, changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { value: Buffer.from('{"name":"after"}'), contentType: 'application/json' }, systemMetadata: null }),
          ),
        },
      ],
    });
    const deadline = Date.now() + 60_000;
    let value: unknown;
    while (Date.now() < deadline && !value) {
      value = (await get(`/entitiesV2/${encodeURIComponent(good)}?aspects=List(tagProperties)`)).aspects.tagProperties?.value;
      if (!value) await new Promise((r) => setTimeout(r, 300));
    }
    expect(value).toEqual({ name: 'after' });

    const consumer = kafka.consumer({ groupId: `${RUN}-failed-reader` });
    await consumer.connect();
    await consumer.subscribe({ topic: `${RUN}_FailedMetadataChangeProposal_v1`, fromBeginning: true });
    const failures: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) failures.push(unframe(message.value).payload.toString('latin1'));
      },
    });
    while (Date.now() < deadline && !failures.some((f) => f.includes('Undecodable'))) await new Promise((r) => setTimeout(r, 300));
    await consumer.disconnect();
    expect(failures.some((f) => f.includes('Undecodable') && f.includes(`${RUN}_poison`))).toBe(true);
  }, 120_000);
});
