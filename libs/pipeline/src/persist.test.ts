/** The persister on the embedded adapters: a temp-file SQLite database, SqliteEventLog topics. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteAspectStore, SqliteEventLog, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry, RestliError } from '@cairn/core';
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import type { AspectStore, EventLog, LogRecord } from '@cairn/ports';
import { ACTOR_HEADER, SYSTEM_ACTOR, type PipelineLogs } from './logs';
import { aspectValueOf, takeAspectValue } from './parsed-aspects';
import { Persister } from './persist';
import { JSON_CONTENT, JSON_PATCH_CONTENT } from './proposal-check';
import { WriteNotifier } from './write-notifier';

const registry = defaultRegistry();
const HIVE = 'urn:li:dataPlatform:hive';
const DS = `urn:li:dataset:(${HIVE},db.orders,PROD)`;
const DS_KEY = { platform: HIVE, name: 'db.orders', origin: 'PROD' };
const ACTOR = 'urn:li:corpuser:writer';
const OWNERSHIP = { owners: [{ owner: 'urn:li:corpuser:alice', type: 'DATAOWNER' }], lastModified: { time: 1, actor: ACTOR } };

const dir = mkdtempSync(join(tmpdir(), 'cairn-persist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let dbs = 0;
let db: EmbeddedDb;
let store: AspectStore;
let logs: PipelineLogs;
let notifier: WriteNotifier;
let persister: Persister;
let seq = 0;

beforeEach(() => {
  db = openDatabase(join(dir, `persist-${++dbs}.sqlite`));
  store = new SqliteAspectStore(db);
  logs = {
    proposals: new SqliteEventLog<MetadataChangeProposal>(db, 'MetadataChangeProposal_v1'),
    failedProposals: new SqliteEventLog<FailedMetadataChangeProposal>(db, 'FailedMetadataChangeProposal_v1'),
    versionedChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Versioned_v1'),
    timeseriesChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Timeseries_v1'),
  };
  notifier = new WriteNotifier();
  persister = new Persister(registry, store, logs, notifier);
});
afterEach(() => db.close());

function record(value: Partial<MetadataChangeProposal>, headers: Record<string, string> = { [ACTOR_HEADER]: ACTOR }): LogRecord<MetadataChangeProposal> {
  return { id: `0:${++seq}`, key: value.entityUrn ?? '', value: value as MetadataChangeProposal, timestamp: Date.now(), headers };
}

const upsert = (aspectName: string, value: unknown, extra: Partial<MetadataChangeProposal> = {}) =>
  record({ entityType: 'dataset', entityUrn: DS, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT }, ...extra });

/** Applies records one batch each; returns the records. */
async function apply(...records: LogRecord<MetadataChangeProposal>[]): Promise<LogRecord<MetadataChangeProposal>[]> {
  for (const r of records) await persister.handleBatch([r]);
  return records;
}

let groups = 0;
/** Everything on a topic so far (read by a fresh consumer group). */
async function drain<T>(log: EventLog<T>): Promise<T[]> {
  const group = `drain-${++groups}`;
  const out: T[] = [];
  const consumer = log.consume(group, async (batch) => {
    out.push(...batch.map((r) => r.value));
  });
  const deadline = Date.now() + 5000;
  while ((await log.lag(group)) > 0) {
    if (Date.now() > deadline) throw new Error('drain timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  await consumer.stop();
  return out;
}

const latest = async (aspect: string, urn = DS) => {
  const [row] = await store.getLatest([urn], [aspect]);
  return row && JSON.parse(row.metadata);
};

describe('Persister: writes', () => {
  it('writes the key aspect on the first write of an entity, with its own change log first', async () => {
    const [r] = await apply(upsert('status', { removed: false }));
    expect(await latest('datasetKey')).toEqual(DS_KEY);
    expect(await latest('status')).toEqual({ removed: false });
    const mcls = await drain(logs.versionedChangeLog);
    expect(mcls.map((m) => [m.aspectName, m.changeType])).toEqual([
      ['datasetKey', 'UPSERT'],
      ['status', 'UPSERT'],
    ]);
    const [keyLog, statusLog] = mcls;
    expect(JSON.parse(keyLog.aspect!.value)).toEqual(DS_KEY);
    expect(keyLog).toMatchObject({ entityType: 'dataset', entityUrn: DS, created: { actor: ACTOR } });
    expect(keyLog.previousAspectValue).toBeUndefined();
    expect(statusLog).toMatchObject({ entityType: 'dataset', entityUrn: DS, aspect: { value: '{"removed":false}', contentType: JSON_CONTENT }, created: { actor: ACTOR } });
    expect(statusLog.previousAspectValue).toBeUndefined();
    expect(statusLog.systemMetadata).toMatchObject({ runId: 'no-run-id-provided' });
    expect(statusLog.created!.time).toBeGreaterThan(0);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({});
  });

  it('does not write the key again on later writes', async () => {
    await apply(upsert('status', { removed: false }), upsert('ownership', OWNERSHIP));
    const mcls = await drain(logs.versionedChangeLog);
    expect(mcls.map((m) => m.aspectName)).toEqual(['datasetKey', 'status', 'ownership']);
  });

  it('does not write the key again after a restart (a new persister)', async () => {
    await apply(upsert('status', { removed: false }));
    persister = new Persister(registry, store, logs, notifier);
    await apply(upsert('ownership', OWNERSHIP));
    expect((await drain(logs.versionedChangeLog)).map((m) => m.aspectName)).toEqual(['datasetKey', 'status', 'ownership']);
  });

  it('uses the system actor when the proposal has no actor header', async () => {
    await persister.handleBatch([record({ entityType: 'dataset', entityUrn: DS, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":true}', contentType: JSON_CONTENT } }, {})]);
    const mcls = await drain(logs.versionedChangeLog);
    expect(mcls.every((m) => m.created?.actor === SYSTEM_ACTOR)).toBe(true);
    const [row] = await store.getLatest([DS], ['status']);
    expect(row.createdBy).toBe(SYSTEM_ACTOR);
  });

  it('settles only the proposals the catalog ingest appended: another producer has no request to answer', async () => {
    const settled: string[] = [];
    persister = new Persister(registry, store, logs, { settle: (id) => settled.push(id) });
    const status = (removed: boolean, headers?: Record<string, string>) =>
      record({ entityType: 'dataset', entityUrn: DS, changeType: 'UPSERT', aspectName: 'status', aspect: { value: JSON.stringify({ removed }), contentType: JSON_CONTENT } }, headers);
    const external = status(true, {});
    const externalBad = record({ entityType: 'dataset', entityUrn: DS, changeType: 'UPSERT', aspectName: 'nope', aspect: { value: '{}', contentType: JSON_CONTENT } }, {});
    const ours = status(false);
    await persister.handleBatch([external, externalBad, ours]);
    expect(settled).toEqual([ours.id]);
    // Applied and failed as before: only the answer is left out.
    expect(await latest('status')).toEqual({ removed: false });
    expect(await drain(logs.failedProposals)).toHaveLength(1);
  });

  it('carries the previous value in the change log of an update', async () => {
    await apply(upsert('status', { removed: false }, { systemMetadata: { runId: 'first', lastObserved: 1 } }), upsert('status', { removed: true }));
    const mcls = await drain(logs.versionedChangeLog);
    const last = mcls[mcls.length - 1];
    expect(last.aspect!.value).toBe('{"removed":true}');
    expect(last.previousAspectValue).toEqual({ value: '{"removed":false}', contentType: JSON_CONTENT });
    expect(last.previousSystemMetadata).toMatchObject({ runId: 'first', lastObserved: 1 });
    expect(JSON.parse((await store.getVersion(DS, 'status', 1))!.metadata)).toEqual({ removed: false });
  });

  it('emits no change log for an unchanged write, but refreshes lastObserved', async () => {
    await apply(upsert('ownership', OWNERSHIP, { systemMetadata: { lastObserved: 10, runId: 'r1' } }));
    const reordered = { lastModified: { actor: ACTOR, time: 1 }, owners: [{ type: 'DATAOWNER', owner: 'urn:li:corpuser:alice' }] };
    await apply(upsert('ownership', reordered, { systemMetadata: { lastObserved: 20, runId: 'r2' } }));
    expect((await drain(logs.versionedChangeLog)).map((m) => m.aspectName)).toEqual(['datasetKey', 'ownership']);
    const [row] = await store.getLatest([DS], ['ownership']);
    expect(row.systemMetadata).toMatchObject({ lastObserved: 20, runId: 'r1' });
    expect(await store.getVersion(DS, 'ownership', 1)).toBeUndefined();
  });

  it('emits a change log for a RESTATE of the same value', async () => {
    await apply(upsert('status', { removed: false }), upsert('status', { removed: false }, { changeType: 'RESTATE' }));
    const mcls = await drain(logs.versionedChangeLog);
    expect(mcls.map((m) => [m.aspectName, m.changeType])).toEqual([
      ['datasetKey', 'UPSERT'],
      ['status', 'UPSERT'],
      ['status', 'RESTATE'],
    ]);
    expect(await store.getVersion(DS, 'status', 1)).toBeUndefined();
  });

  it('re-emits the change log of a redelivered proposal without writing a new version', async () => {
    const first = upsert('status', { removed: false });
    const second = upsert('status', { removed: true });
    await apply(first, second);
    await persister.handleBatch([second]);
    const mcls = (await drain(logs.versionedChangeLog)).filter((m) => m.aspectName === 'status');
    expect(mcls).toHaveLength(3);
    expect(mcls[2].aspect).toEqual(mcls[1].aspect);
    expect(mcls[2].previousAspectValue).toEqual({ value: '{"removed":false}', contentType: JSON_CONTENT });
    expect(await store.getVersion(DS, 'status', 2)).toBeUndefined();
  });

  it('hands on the aspect values it parsed with the change logs it appends, but not a redelivery’s, which holds what the store holds', async () => {
    const appended: MetadataChangeLog[] = [];
    const append = logs.versionedChangeLog.append.bind(logs.versionedChangeLog);
    logs.versionedChangeLog.append = (records, options) => {
      appended.push(...records.map((r) => r.value));
      return append(records, options);
    };
    const first = upsert('ownership', OWNERSHIP);
    await apply(first);
    await persister.handleBatch([first]);
    const [key, ownership, redelivered] = appended;
    expect(key!.aspectName).toBe('datasetKey');
    for (const mcl of [key!, ownership!]) {
      // The same object each time: remembered, not parsed again.
      expect(aspectValueOf(mcl)).toBe(aspectValueOf(mcl));
      expect(aspectValueOf(mcl)).toEqual(JSON.parse(mcl.aspect!.value));
    }
    expect(redelivered!.aspectName).toBe('ownership');
    expect(aspectValueOf(redelivered!)).not.toBe(aspectValueOf(redelivered!));
    expect(aspectValueOf(redelivered!)).toEqual(OWNERSHIP);
    // Taken by its reader, the remembered value is no longer kept: read again, it is parsed again.
    const remembered = aspectValueOf(ownership!);
    expect(takeAspectValue(ownership!)).toBe(remembered);
    expect(aspectValueOf(ownership!)).not.toBe(remembered);
    expect(aspectValueOf(ownership!)).toEqual(remembered);
  });

  it('applies a PATCH to the stored value and logs the result', async () => {
    const tags = { tags: [{ tag: 'urn:li:tag:a' }] };
    const patch = [{ op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:b' } }];
    await apply(
      upsert('globalTags', tags),
      record({ entityType: 'dataset', entityUrn: DS, changeType: 'PATCH', aspectName: 'globalTags', aspect: { value: JSON.stringify(patch), contentType: JSON_PATCH_CONTENT } }),
    );
    expect(await latest('globalTags')).toEqual({ tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] });
    const last = (await drain(logs.versionedChangeLog)).pop()!;
    expect(last.changeType).toBe('PATCH');
    expect(last.aspect).toEqual({ value: JSON.stringify({ tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] }), contentType: JSON_CONTENT });
    expect(last.previousAspectValue).toEqual({ value: JSON.stringify(tags), contentType: JSON_CONTENT });
  });

  it('sends a time-series proposal to the time-series change log only', async () => {
    const profile = { timestampMillis: 1_650_000_000_000, rowCount: 7 };
    await apply(upsert('datasetProfile', profile));
    const ts = await drain(logs.timeseriesChangeLog);
    expect(ts).toHaveLength(1);
    expect(ts[0]).toMatchObject({ entityUrn: DS, aspectName: 'datasetProfile', aspect: { value: JSON.stringify(profile) }, created: { actor: ACTOR } });
    expect(await drain(logs.versionedChangeLog)).toEqual([]);
    expect(await store.exists(DS)).toBe(false);
  });

  it('writes a key aspect proposal without a second key change log', async () => {
    await apply(upsert('datasetKey', DS_KEY));
    expect((await drain(logs.versionedChangeLog)).map((m) => m.aspectName)).toEqual(['datasetKey']);
    await apply(upsert('status', { removed: false }));
    expect((await drain(logs.versionedChangeLog)).map((m) => m.aspectName)).toEqual(['datasetKey', 'status']);
  });
});

describe('Persister: failures', () => {
  it('routes a poison proposal to the failed topic with the reason and applies the next ones', async () => {
    const bad = upsert('status', { removed: 'yes' });
    const unknown = record({ entityType: 'dataset', entityUrn: DS, changeType: 'UPSERT', aspectName: 'nope', aspect: { value: '{}', contentType: JSON_CONTENT } });
    const good = upsert('status', { removed: true });
    await persister.handleBatch([bad, unknown, good]);
    const failed = await drain(logs.failedProposals);
    expect(failed).toHaveLength(2);
    expect(failed[0].metadataChangeProposal).toEqual(bad.value);
    expect(failed[0].error).toMatch(/Failed to validate aspect status.*\/removed: expected a boolean/);
    expect(failed[1].error).toMatch(/Unknown aspect 'nope'/);
    expect(await latest('status')).toEqual({ removed: true });
    await expect(notifier.wait(bad.id, 100)).rejects.toMatchObject({ status: 422 });
    await expect(notifier.wait(unknown.id, 100)).rejects.toMatchObject({ status: 400 });
    await expect(notifier.wait(good.id, 100)).resolves.toEqual({});
  });

  it('fails a PATCH that cannot apply with 422', async () => {
    await apply(upsert('globalTags', { tags: [] }));
    const patch = record({
      entityType: 'dataset',
      entityUrn: DS,
      changeType: 'PATCH',
      aspectName: 'globalTags',
      aspect: { value: JSON.stringify([{ op: 'remove', path: '/tags/3' }]), contentType: JSON_PATCH_CONTENT },
    });
    await apply(patch);
    const [failed] = await drain(logs.failedProposals);
    expect(failed.error).toMatch(/Cannot apply patch to globalTags/);
    await expect(notifier.wait(patch.id, 100)).rejects.toMatchObject({ status: 422 });
    expect(await latest('globalTags')).toEqual({ tags: [] });
  });

  it('fails a PATCH whose result does not validate with 422', async () => {
    const patch = record({
      entityType: 'dataset',
      entityUrn: DS,
      changeType: 'PATCH',
      aspectName: 'globalTags',
      aspect: { value: JSON.stringify([{ op: 'add', path: '/tags', value: 'nope' }]), contentType: JSON_PATCH_CONTENT },
    });
    await apply(patch);
    await expect(notifier.wait(patch.id, 100)).rejects.toMatchObject({ status: 422 });
    expect(await store.exists(DS)).toBe(false);
  });

  it('retries a store failure, then fails the proposal with 500', async () => {
    let failures = 2;
    const flaky: AspectStore = Object.create(store);
    flaky.write = async (w) => {
      if (failures-- > 0) throw new Error('disk on fire');
      return store.write(w);
    };
    persister = new Persister(registry, flaky, logs, notifier);
    const r = upsert('datasetKey', DS_KEY);
    await apply(r);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({});
    expect(await drain(logs.failedProposals)).toEqual([]);

    failures = 10;
    const doomed = upsert('status', { removed: true });
    await apply(doomed);
    const [failed] = await drain(logs.failedProposals);
    expect(failed.error).toMatch(/disk on fire/);
    const err = await notifier.wait(doomed.id, 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RestliError);
    expect((err as RestliError).status).toBe(500);
  });
});

describe("Persister: an entity's key change log", () => {
  /** The store's next aspect write fails, as a disk hiccup would; answers how many failures are left. */
  function failNextWrite(): () => number {
    const write = store.write.bind(store);
    let failures = 1;
    store.write = async (w) => {
      if (failures-- > 0) throw new Error('disk hiccup');
      return write(w);
    };
    return () => failures;
  }

  it('is logged by the retry of a proposal whose aspect failed after its key was written', async () => {
    const failuresLeft = failNextWrite();
    const r = upsert('status', { removed: false });
    await apply(r);
    expect(failuresLeft()).toBe(-1);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({});
    expect((await drain(logs.versionedChangeLog)).map((l) => l.aspectName)).toEqual(['datasetKey', 'status']);
  });

  it('is logged by the proposal delivered again after a batch with one to retry was refused inside its append', async () => {
    failNextWrite();
    const r = upsert('status', { removed: false });
    // Inside the appending transaction the retries would hold it open: the batch is refused, to be read again.
    await expect(persister.takeBatch([r], { inline: true })).rejects.toThrow('to be retried');
    expect(await drain(logs.versionedChangeLog)).toEqual([]);
    await apply(r);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({});
    expect((await drain(logs.versionedChangeLog)).map((l) => l.aspectName)).toEqual(['datasetKey', 'status']);
  });

  it('is logged again when its proposal is delivered again after the change logs were lost', async () => {
    const r = upsert('status', { removed: false });
    const append = logs.versionedChangeLog.append.bind(logs.versionedChangeLog);
    logs.versionedChangeLog.append = async () => {
      throw new Error('log unavailable');
    };
    await expect(persister.handleBatch([r])).rejects.toThrow('log unavailable');
    expect(await latest('datasetKey')).toEqual(DS_KEY);
    logs.versionedChangeLog.append = append;
    // The process restarts and the proposal comes again.
    persister = new Persister(registry, store, logs, notifier);
    await apply(r);
    expect((await drain(logs.versionedChangeLog)).map((l) => [l.aspectName, JSON.parse(l.aspect!.value)])).toEqual([
      ['datasetKey', DS_KEY],
      ['status', { removed: false }],
    ]);
    // Another proposal finds the key written by the first one: no change log is owed for it.
    await apply(upsert('ownership', OWNERSHIP));
    persister = new Persister(registry, store, logs, notifier);
    await apply(upsert('status', { removed: true }));
    expect((await drain(logs.versionedChangeLog)).map((l) => l.aspectName)).toEqual(['datasetKey', 'status', 'ownership', 'status']);
  });
});

describe('Persister: deletes', () => {
  beforeEach(async () => {
    await apply(upsert('status', { removed: false }), upsert('status', { removed: true }), upsert('ownership', OWNERSHIP));
    await apply(record({ entityType: 'corpuser', entityUrn: 'urn:li:corpuser:alice', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: JSON_CONTENT } }));
  });

  const del = (aspectName: string) => record({ entityType: 'dataset', entityUrn: DS, changeType: 'DELETE', aspectName });

  it('DELETE of the key aspect removes the entity and logs each aspect, the key last', async () => {
    const before = await drain(logs.versionedChangeLog);
    const r = del('datasetKey');
    await apply(r);
    expect(await store.exists(DS)).toBe(false);
    expect(await store.exists('urn:li:corpuser:alice')).toBe(true);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({ rows: 4 });
    const mcls = (await drain(logs.versionedChangeLog)).slice(before.length);
    expect(mcls.map((m) => m.changeType)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    expect(mcls.map((m) => m.aspectName).slice(0, 2).sort()).toEqual(['ownership', 'status']);
    expect(mcls[2].aspectName).toBe('datasetKey');
    const byAspect = Object.fromEntries(mcls.map((m) => [m.aspectName, m]));
    expect(JSON.parse(byAspect.datasetKey.previousAspectValue!.value)).toEqual(DS_KEY);
    expect(JSON.parse(byAspect.status.previousAspectValue!.value)).toEqual({ removed: true });
    expect(JSON.parse(byAspect.ownership.previousAspectValue!.value)).toEqual(OWNERSHIP);
    for (const m of mcls) {
      expect(m.aspect).toBeUndefined();
      expect(m).toMatchObject({ entityType: 'dataset', entityUrn: DS, created: { actor: ACTOR } });
      expect(m.previousSystemMetadata).toBeDefined();
    }
  });

  it('writes the key again when the entity comes back after a delete', async () => {
    await apply(del('datasetKey'));
    const before = (await drain(logs.versionedChangeLog)).length;
    await apply(upsert('status', { removed: false }));
    const mcls = (await drain(logs.versionedChangeLog)).slice(before);
    expect(mcls.map((m) => m.aspectName)).toEqual(['datasetKey', 'status']);
    expect(await latest('datasetKey')).toEqual(DS_KEY);
  });

  it('DELETE of another aspect removes all its versions only', async () => {
    const before = (await drain(logs.versionedChangeLog)).length;
    const r = del('status');
    await apply(r);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({ rows: 2 });
    expect(await latest('status')).toBeUndefined();
    expect(await store.getVersion(DS, 'status', 1)).toBeUndefined();
    expect(await latest('ownership')).toEqual(OWNERSHIP);
    const mcls = (await drain(logs.versionedChangeLog)).slice(before);
    expect(mcls).toHaveLength(1);
    expect(mcls[0]).toMatchObject({ changeType: 'DELETE', aspectName: 'status', previousAspectValue: { value: '{"removed":true}' } });
  });

  it('DELETE of nothing logs nothing', async () => {
    const before = (await drain(logs.versionedChangeLog)).length;
    const r = del('globalTags');
    await apply(r);
    await expect(notifier.wait(r.id, 100)).resolves.toEqual({ rows: 0 });
    expect(await drain(logs.versionedChangeLog)).toHaveLength(before);
  });
});

describe('Persister: batches', () => {
  it('applies a batch in order as one unit: versions and change logs as if applied one by one', async () => {
    const first = upsert('ownership', OWNERSHIP);
    const second = upsert('ownership', { ...OWNERSHIP, owners: [{ owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' }] });
    const poison = upsert('status', { removed: 'no' });
    const third = upsert('status', { removed: true });
    await persister.handleBatch([first, second, poison, third]);
    expect((await latest('ownership')).owners[0].owner).toBe('urn:li:corpuser:bob');
    expect(await latest('status')).toEqual({ removed: true });
    const changeLogs = await drain(logs.versionedChangeLog);
    expect(changeLogs.map((l) => [l.aspectName, l.previousAspectValue ? 'update' : 'create'])).toEqual([
      ['datasetKey', 'create'],
      ['ownership', 'create'],
      ['ownership', 'update'],
      ['status', 'create'],
    ]);
    expect((await drain(logs.failedProposals)).map((f) => f.metadataChangeProposal.aspectName)).toEqual(['status']);
    await expect(notifier.wait(second.id, 100)).resolves.toEqual({});
    await expect(notifier.wait(poison.id, 100)).rejects.toMatchObject({ status: 422 });
  });

  it("writes a batch's proposals through the store its unit gives, not around the unit", async () => {
    const through: string[] = [];
    const units: AspectStore = {
      ...store,
      unit: (work) =>
        store.unit!((unit) =>
          work({
            ...unit,
            write: (w) => (through.push(`write:${w.aspect}`), unit.write(w)),
            createIfAbsent: (w) => (through.push(`createIfAbsent:${w.aspect}`), unit.createIfAbsent(w)),
            getLatest: (urns, aspects) => (through.push(`getLatest:${aspects?.join()}`), unit.getLatest(urns, aspects)),
            deleteAspect: (urn, aspect) => (through.push(`deleteAspect:${aspect}`), unit.deleteAspect(urn, aspect)),
          }),
        ),
      write: () => Promise.reject(new Error('written around the unit')),
      createIfAbsent: () => Promise.reject(new Error('written around the unit')),
    };
    persister = new Persister(registry, units, logs, notifier);
    const addTag = [{ op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:b' } }];
    // In log order: a record's id tells the store whether it was applied already.
    const tags = upsert('globalTags', { tags: [{ tag: 'urn:li:tag:a' }] });
    const patch = record({ entityType: 'dataset', entityUrn: DS, changeType: 'PATCH', aspectName: 'globalTags', aspect: { value: JSON.stringify(addTag), contentType: JSON_PATCH_CONTENT } });
    const remove = record({ entityType: 'dataset', entityUrn: DS, changeType: 'DELETE', aspectName: 'status' });
    await persister.handleBatch([tags, patch, remove]);
    // The aspects' chains run side by side: the order across them is not promised.
    expect(through.sort()).toEqual(['createIfAbsent:datasetKey', 'deleteAspect:status', 'getLatest:globalTags', 'write:globalTags', 'write:globalTags']);
    expect(await latest('globalTags')).toEqual({ tags: [{ tag: 'urn:li:tag:a' }, { tag: 'urn:li:tag:b' }] });
  });

  /** The embedded store behind a round trip: `delayMs` before each write, which is recorded as `<first|other>:<aspect>`. */
  function remoteStore(delayMs: (w: { urn: string; aspect: string }) => number, writes: string[]): AspectStore {
    const arrive = async (w: { urn: string; aspect: string }) => {
      await new Promise((r) => setTimeout(r, delayMs(w)));
      writes.push(`${w.urn === DS ? 'first' : 'other'}:${w.aspect}`);
    };
    return {
      ...store,
      getLatest: (urns, aspects) => store.getLatest(urns, aspects),
      deleteEntity: (urn) => store.deleteEntity(urn),
      write: async (w) => {
        await arrive(w);
        return store.write(w);
      },
      createIfAbsent: async (w) => {
        await arrive(w);
        return store.createIfAbsent(w);
      },
      unit: undefined,
    };
  }

  it("overlaps different entities' and aspects' writes on a store a round trip away, each aspect's proposals in order, change logs in log order", async () => {
    const OTHER = `urn:li:dataset:(${HIVE},db.other,PROD)`;
    const writes: string[] = [];
    // The first entity's store is slow: the other's writes must not wait for it.
    persister = new Persister(registry, remoteStore((w) => (w.urn === DS ? 20 : 1), writes), logs, notifier);
    const SECOND_OWNERS = { ...OWNERSHIP, owners: [{ owner: 'urn:li:corpuser:bob', type: 'DATAOWNER' }] };
    const batch = [
      upsert('ownership', OWNERSHIP),
      upsert('ownership', OWNERSHIP, { entityUrn: OTHER }),
      upsert('status', { removed: false }),
      upsert('status', { removed: true }, { entityUrn: OTHER }),
      upsert('ownership', SECOND_OWNERS),
    ];
    await persister.handleBatch(batch);
    // The key goes beside the first aspects, written once; the aspects of an entity overlap, and
    // an aspect's second proposal waits for its first.
    const first = writes.filter((w) => w.startsWith('first'));
    expect(first.slice(0, 3).sort()).toEqual(['first:datasetKey', 'first:ownership', 'first:status']);
    expect(first.slice(3)).toEqual(['first:ownership']);
    expect(writes.indexOf('other:status')).toBeLessThan(writes.indexOf('first:ownership'));
    expect(await latest('ownership')).toEqual(SECOND_OWNERS);
    const changeLogs = await drain(logs.versionedChangeLog);
    expect(changeLogs.map((l) => `${l.entityUrn === DS ? 'first' : 'other'}:${l.aspectName}:${l.previousAspectValue ? 'update' : 'create'}`)).toEqual([
      'first:datasetKey:create',
      'first:ownership:create',
      'other:datasetKey:create',
      'other:ownership:create',
      'first:status:create',
      'other:status:create',
      'first:ownership:update',
    ]);
  });

  it("applies an entity's proposals in log order when one of them deletes the entity", async () => {
    const writes: string[] = [];
    // The first upsert is slow: applied per aspect, the delete and the last upsert would pass it.
    persister = new Persister(registry, remoteStore((w) => (w.aspect === 'status' ? 30 : 1), writes), logs, notifier);
    const deleteEntity = record({ entityType: 'dataset', entityUrn: DS, changeType: 'DELETE', aspectName: 'datasetKey' });
    await persister.handleBatch([upsert('status', { removed: false }), deleteEntity, upsert('ownership', OWNERSHIP)]);
    expect(await latest('status')).toBeUndefined();
    expect(await latest('ownership')).toEqual(OWNERSHIP);
    expect(writes.indexOf('first:status')).toBeLessThan(writes.indexOf('first:ownership'));
  });

  it('retries the rest of a batch one by one after a store failure, in order', async () => {
    const write = store.write.bind(store);
    let failures = 1;
    store.write = async (w) => {
      if (w.aspect === 'status' && failures-- > 0) throw new Error('disk hiccup');
      return write(w);
    };
    const records = [upsert('ownership', OWNERSHIP), upsert('status', { removed: false }), upsert('status', { removed: true })];
    await persister.handleBatch(records);
    expect(await latest('status')).toEqual({ removed: true });
    expect((await drain(logs.versionedChangeLog)).map((l) => l.aspectName)).toEqual(['datasetKey', 'ownership', 'status', 'status']);
    for (const r of records) await expect(notifier.wait(r.id, 100)).resolves.toEqual({});
  });
});
