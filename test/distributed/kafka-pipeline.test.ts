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
const OWNER = `urn:li:corpuser:${RUN}_owner`;
const COUNT = 1000;
const WRITES = 2;
const DATASETS = COUNT / WRITES;

const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${RUN}.t${i},PROD)`;

suite('the distributed pipeline on Kafka, MongoDB and Elasticsearch', () => {
  const running = new Map<string, ServiceProcess>();
  const kafka = new Kafka({ clientId: 'plain-avro-producer', brokers: BACKENDS.kafka.split(','), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  let gms: ServiceProcess;

  /** Every process started, killed ones too: their output says what happened before a kill. */
  const started: [string, ServiceProcess][] = [];
  const start = async (name: string) => {
    const p = await startNamedService(name, ENV, 120_000);
    running.set(name, p);
    started.push([name, p]);
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

  it('applies 1,000 proposals produced straight to Kafka, across a kill -9 of each consumer mid-stream, without duplicate versions', async () => {
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
    // Each dataset's ownership is written WRITES times in a row, so a batch redelivered after a
    // crash holds proposals that later ones superseded: none of them may add a version.
    const message = (n: number) => {
      const i = Math.floor(n / WRITES);
      return {
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
            aspect: { value: Buffer.from(JSON.stringify({ owners: [{ owner: OWNER, type: 'DATAOWNER' }], lastModified: { time: n, actor: OWNER } })), contentType: 'application/json' },
            systemMetadata: null,
          }),
        ),
      };
    };
    const send = (from: number, to: number) => producer.send({ topic: TOPIC, messages: Array.from({ length: to - from }, (_, k) => message(from + k)) });
    const post = async (path: string, body: unknown) =>
      (await fetch(`${gms.baseUrl}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
    const persisted = async () => (await post('/aspects?action=getCount', { aspect: 'ownership', urnLike: `%${RUN}.t%` })).value as number;
    const owned = async () => (await get(`/relationships?urn=${encodeURIComponent(OWNER)}&direction=INCOMING&types=OwnedBy&count=0`)).total as number;
    /** Polls until `done` holds, and returns the last value read. */
    const until = async (read: () => Promise<number>, done: (n: number) => boolean, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      let n = await read();
      while (!done(n) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        n = await read();
      }
      return n;
    };

    // Each consumer dies mid-stream: with part of the stream applied, and more of it still to come.
    await send(0, 400);
    const atFirstKill = await until(persisted, (n) => n > 0, 120_000);
    await killHard(running.get('mce-consumer')!);
    expect(atFirstKill).toBeGreaterThan(0);
    await send(400, 700);
    await start('mce-consumer');
    const atSecondKill = await until(owned, (n) => n > 0, 120_000);
    await killHard(running.get('mae-consumer')!);
    expect(atSecondKill).toBeGreaterThan(0);
    await send(700, COUNT);
    await start('mae-consumer');

    // FerretDB is the slow part (several round trips per versioned write): give a loaded machine time.
    expect(await until(persisted, (n) => n >= DATASETS, 300_000)).toBe(DATASETS);
    const lastWrite = (i: number) => i * WRITES + WRITES - 1;
    for (let i = 0; i < DATASETS; i++) {
      const versionOf = async (v: number) => {
        const res = await fetch(`${gms.baseUrl}/aspects/${encodeURIComponent(urnOf(i))}?aspect=ownership&version=${v}`);
        return res.status === 404 ? undefined : (((await res.json()) as any).aspect['com.linkedin.common.Ownership'].lastModified.time as number);
      };
      await until(async () => (await versionOf(0)) ?? -1, (t) => t === lastWrite(i), 120_000);
      // Version 0 is the last write, versions 1.. the earlier ones in order, and nothing more.
      const history = [];
      for (let v = 0; v <= WRITES; v++) history.push(await versionOf(v));
      expect({ i, history }).toEqual({ i, history: [lastWrite(i), ...Array.from({ length: WRITES - 1 }, (_, k) => i * WRITES + k), undefined] });
    }

    // The indexes caught up across the mae-consumer crash: every dataset has its OwnedBy edge and is found by its owner.
    const ownedCount = await until(owned, (n) => n >= DATASETS, 120_000);
    if (ownedCount < DATASETS) {
      // Seen in about one run in twenty while Elasticsearch's total was a cardinality estimate (499 of 500, none missing from the list): which one, and what the services said.
      const { relationships } = await get(`/relationships?urn=${encodeURIComponent(OWNER)}&direction=INCOMING&types=OwnedBy&count=${COUNT}`);
      const have = new Set((relationships as { entity: string }[]).map((r) => r.entity));
      const missing = Array.from({ length: DATASETS }, (_, i) => urnOf(i)).filter((urn) => !have.has(urn));
      const outputs = started.map(([name, p]) => `--- ${name}\n${p.output().slice(-6000)}`).join('\n');
      throw new Error(`${ownedCount} of ${DATASETS} OwnedBy edges; missing: ${missing.join(', ')}\n${outputs}`);
    }
    const found = await until(
      async () => (await post('/entities?action=search', { entity: 'dataset', input: '*', filter: { or: [{ and: [{ field: 'owners', value: OWNER }] }] }, start: 0, count: 0 })).value.numEntities,
      (n) => n >= DATASETS,
      120_000,
    );
    expect(found).toBe(DATASETS);
  }, 900_000);

  it('sends a malformed message to the failed-proposal topic and still applies the next one', async () => {
    const good = `urn:li:tag:${RUN}_after_poison`;
    const reg = await fetch(`${gms.baseUrl}/schema-registry/api/subjects/${TOPIC}-value/versions/latest`);
    const { id, schema } = (await reg.json()) as { id: number; schema: string };
    const type = Type.forSchema(JSON.parse(schema));
    await producer.send({
      topic: TOPIC,
      messages: [
        // One partition for both, so the good message waits behind the poison unless the consumer moves past it.
        { key: `urn:li:tag:${RUN}_poison`, value: Buffer.from('definitely not avro'), partition: 0 },
        {
          key: good,
          partition: 0,
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

  it('reports on every service: its backends on /health, its work on /metrics', async () => {
    for (const [name, service] of running) {
      const health = await fetch(`${service.baseUrl}/health`);
      const report = (await health.json()) as { healthy: boolean; components: Record<string, { healthy: boolean }> };
      expect({ name, status: health.status, report }).toEqual({
        name,
        status: 200,
        report: expect.objectContaining({ healthy: true, components: { kafka: { healthy: true }, mongodb: { healthy: true }, elasticsearch: { healthy: true } } }),
      });
    }
    const metric = async (service: string, line: RegExp) => {
      const text = await (await fetch(`${running.get(service)!.baseUrl}/metrics`)).text();
      const value = text.split('\n').find((l) => line.test(l));
      return value === undefined ? undefined : Number(value.split(' ').pop());
    };
    // Counted since each consumer's restart in the first test.
    expect(await metric('mce-consumer', /^cairn_proposals_applied_total\{/)).toBeGreaterThan(0);
    expect(await metric('mce-consumer', /^cairn_proposals_failed_total\{/)).toBeGreaterThanOrEqual(1);
    expect(await metric('mce-consumer', /^cairn_consumer_lag_records\{.*mce-consumer/)).toEqual(expect.any(Number));
    expect(await metric('mae-consumer', /^cairn_change_logs_projected_total\{projector="search"/)).toBeGreaterThan(0);
    expect(await metric('gms', /^cairn_http_request_duration_seconds_count\{/)).toBeGreaterThan(0);
  }, 60_000);
});
