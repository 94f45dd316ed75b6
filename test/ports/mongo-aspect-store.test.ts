/**
 * What the port contract cannot see on MongoDB / FerretDB: values are inert text whatever their
 * keys, filters take no operators from callers, and versions stay exact without transactions
 * (racing writers, redelivery after a crash between the history copy and the swap, a writer
 * that died holding an aspect's write lock).
 */
import { MongoClient, type Collection } from 'mongodb';
import {
  ASPECT_COLLECTION,
  ENTITY_DIRECTORY_COLLECTION,
  isFerretDb,
  WRITE_LOCK_COLLECTION,
  aspectLockKey,
  MongoAspectStore,
  openMongoAspectStore,
  rowId,
  type AspectDocument,
  type WriteLockDocument,
} from '@cairn/adapter-mongo';
import type { AspectWrite, WriteOutcome } from '@cairn/ports';
import { MONGODB_URI, describeWithMongo, dropDatabases, scratchDatabaseName } from './mongo-server';

const databases: string[] = [];
let dbName: string;
let raw: MongoClient;
let store: MongoAspectStore;
let rows: Collection<AspectDocument>;
let locks: Collection<WriteLockDocument>;

let proposals = 0;
function aspectWrite(urn: string, aspect: string, value: unknown, proposalId = `proposal-${++proposals}`): AspectWrite {
  return {
    urn,
    aspect,
    metadata: JSON.stringify(value),
    systemMetadata: { lastObserved: 1_700_000_000_000 + proposals, runId: 'mongo-test' },
    createdOn: 1_700_000_000_000 + proposals,
    createdBy: 'urn:li:corpuser:tester',
    proposalId,
  };
}

async function versionsOf(urn: string, aspect: string): Promise<AspectDocument[]> {
  return rows.find({ urn, aspect }).sort({ version: 1 }).toArray();
}

/** History in the order it was written: versions 1, 2, ..., then the latest (version 0). */
async function valuesInWriteOrder(urn: string, aspect: string): Promise<unknown[]> {
  const [latest, ...history] = await versionsOf(urn, aspect);
  return [...history, latest!].map((row) => JSON.parse(row.metadata));
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)';

/** The aspects the store names for an entity (through its directory). */
const names = async (urn: string) => (await store.getLatest([urn])).map((row) => row.aspect);

describeWithMongo('MongoAspectStore on a MongoDB-wire server', () => {
  beforeAll(async () => {
    raw = await MongoClient.connect(MONGODB_URI);
  });
  afterAll(async () => {
    await raw?.close();
    await dropDatabases(databases);
  });
  // Each case on a database of its own, read directly through `raw` where the store's rows matter.
  beforeEach(async () => {
    dbName = scratchDatabaseName();
    databases.push(dbName);
    store = await openMongoAspectStore(MONGODB_URI, dbName);
    rows = raw.db(dbName).collection<AspectDocument>(ASPECT_COLLECTION);
    locks = raw.db(dbName).collection<WriteLockDocument>(WRITE_LOCK_COLLECTION);
  });
  afterEach(() => store.close());

  describe('values are inert text', () => {
    const awkward = {
      'a.b': { 'c.d': 1 },
      $set: { 'x.y': '$z' },
      $where: 'true',
      filter: { $gt: '' },
      '': 'empty key',
      'unicode é 😀': ['\u0000', null, 1.5, true],
    };

    it('round-trips keys with dots and `$` in metadata and systemMetadata exactly', async () => {
      const write = { ...aspectWrite(DATASET, 'datasetProperties', awkward), systemMetadata: { runId: 'r', lastObserved: 5, properties: { 'a.b': 'c', $gt: '' } } };
      await store.write(write);
      const [latest] = await store.getLatest([DATASET], ['datasetProperties']);
      expect(latest!.metadata).toBe(write.metadata);
      expect(latest!.systemMetadata).toEqual(write.systemMetadata);
      const stored = await rows.findOne({ urn: DATASET, version: 0 });
      expect(typeof stored!.metadata).toBe('string');
      expect(typeof stored!.systemMetadata).toBe('string');
    });

    it('keeps versions of operator-like values apart and compares them as data', async () => {
      await store.write(aspectWrite(DATASET, 'status', { $gt: '' }));
      await store.write(aspectWrite(DATASET, 'status', { $ne: null }));
      expect((await store.write(aspectWrite(DATASET, 'status', { $ne: null }))).kind).toBe('unchanged');
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ $gt: '' }, { $ne: null }]);
    });

    it('rejects operator objects where a URN, aspect or pattern is expected instead of matching other rows', async () => {
      await store.write(aspectWrite(DATASET, 'status', { removed: false }));
      const operator = { $gt: '' } as unknown as string;
      await expect(store.getVersion(operator, 'status', 0)).rejects.toThrow(TypeError);
      await expect(store.getLatest([operator])).rejects.toThrow(TypeError);
      await expect(store.exists(operator)).rejects.toThrow(TypeError);
      await expect(store.deleteEntity(operator)).rejects.toThrow(TypeError);
      await expect(store.deleteAspect(DATASET, operator)).rejects.toThrow(TypeError);
      await expect(store.scanLatest({ urn: operator, start: 0, limit: 10 })).rejects.toThrow(TypeError);
      await expect(store.countLatest({ urnLike: operator })).rejects.toThrow(TypeError);
      expect(await store.exists(DATASET)).toBe(true);
    });

    it('treats URNs that look like operators or patterns as plain strings', async () => {
      await store.write(aspectWrite('urn:li:tag:$gt', 'tagKey', { name: '$gt' }));
      await store.write(aspectWrite('urn:li:tag:.*', 'tagKey', { name: '.*' }));
      expect(await store.exists('urn:li:tag:$ne')).toBe(false);
      expect(await store.exists('urn:li:tag:x')).toBe(false);
      expect((await store.getLatest(['urn:li:tag:.*'])).map((r) => r.urn)).toEqual(['urn:li:tag:.*']);
    });
  });

  describe('urnLike and entityType scans', () => {
    const urns = [
      'urn:li:dataset:(urn:li:dataPlatform:hive,a.b,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,axb,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:kafka,100%_done,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:kafka,100x_done,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,trailing,PROD)\n',
      'urn:li:Dataset:(urn:li:dataPlatform:hive,upper,PROD)',
      'urn:li:chart:(looker,1)',
      'urn:li:data.set:x',
    ];
    beforeEach(async () => {
      for (const urn of urns) await store.write(aspectWrite(urn, 'status', { removed: false }));
    });
    const like = async (urnLike: string) => (await store.scanLatest({ urnLike, start: 0, limit: 100 })).map((r) => r.urn);

    it('reads `%` as any run and `_` as exactly one character, over the whole URN', async () => {
      expect(await like('urn:li:dataset:%,PROD)')).toEqual([urns[0], urns[1], urns[2], urns[3]]);
      expect(await like('urn:li:dataset:(urn:li:dataPlatform:hive,a_b,PROD)')).toEqual([urns[0], urns[1]]);
      expect(await like('urn:li:chart:%')).toEqual([urns[6]]);
      expect(await like('%looker%')).toEqual([urns[6]]);
      expect(await like('urn:li:chart:')).toEqual([]);
    });

    it('matches regular-expression characters and escaped wildcards literally', async () => {
      expect(await like('urn:li:dataset:(urn:li:dataPlatform:hive,a.b,PROD)')).toEqual([urns[0]]);
      expect(await like('urn:li:dataset:(urn:li:dataPlatform:kafka,100\\%\\_done,PROD)')).toEqual([urns[2]]);
      expect(await like('urn:li:data.set:_')).toEqual([urns[7]]);
      expect(await like('urn:li:data_set:%')).toEqual([urns[7]]);
    });

    it('is case-sensitive and does not stop before a final newline', async () => {
      expect(await like('urn:li:dataset:%hive,trailing,PROD)')).toEqual([]);
      expect(await like('urn:li:dataset:%hive,trailing,PROD)_')).toEqual([urns[4]]);
      expect(await like('urn:li:Dataset:%')).toEqual([urns[5]]);
    });

    it('takes the entity type as a literal URN prefix, combined with urnLike', async () => {
      expect(await store.countLatest({ entityType: 'data.set' })).toBe(1);
      expect(await store.countLatest({ entityType: 'dataset' })).toBe(5);
      expect(await store.countLatest({ entityType: 'dataset', urnLike: '%kafka%' })).toBe(2);
      expect((await store.scanLatest({ entityType: 'dataset', urnLike: '%kafka%', start: 1, limit: 5 })).map((r) => r.urn)).toEqual([urns[3]]);
    });
  });

  describe('racing writers', () => {
    it('two writers on one aspect end with contiguous versions, each value once, in each writer\'s order', async () => {
      const other = await openMongoAspectStore(MONGODB_URI, dbName);
      try {
        const perWriter = 40;
        const writer = (name: string, on: MongoAspectStore) => async () => {
          const outcomes: WriteOutcome[] = [];
          for (let i = 0; i < perWriter; i++) outcomes.push(await on.write(aspectWrite(DATASET, 'datasetProperties', { writer: name, i })));
          return outcomes;
        };
        const outcomes = (await Promise.all([writer('a', store)(), writer('b', other)()])).flat();

        expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
        expect(outcomes.filter((o) => o.kind === 'updated')).toHaveLength(2 * perWriter - 1);
        const versions = (await versionsOf(DATASET, 'datasetProperties')).map((row) => row.version);
        expect(versions).toEqual(Array.from({ length: 2 * perWriter }, (_, v) => v));
        const values = (await valuesInWriteOrder(DATASET, 'datasetProperties')) as { writer: string; i: number }[];
        for (const name of ['a', 'b']) {
          expect(values.filter((v) => v.writer === name).map((v) => v.i)).toEqual(Array.from({ length: perWriter }, (_, i) => i));
        }
        // Each update's previous value is the one written just before it: one history, no forks.
        const previous = outcomes.flatMap((o) => (o.kind === 'updated' ? [JSON.parse(o.previous.metadata)] : []));
        expect(previous).toHaveLength(new Set(previous.map((v) => JSON.stringify(v))).size);
      } finally {
        await other.close();
      }
    });

    it('a writer repeating one value while another changes it: every version is a change, none lost', async () => {
      const other = await openMongoAspectStore(MONGODB_URI, dbName);
      try {
        const rounds = 30;
        const changer = async () => {
          for (let i = 0; i < rounds; i++) await store.write(aspectWrite(DATASET, 'ownership', { i }));
        };
        const repeater = async () => {
          const kinds: string[] = [];
          for (let i = 0; i < rounds; i++) kinds.push((await other.write(aspectWrite(DATASET, 'ownership', { same: true }))).kind);
          return kinds;
        };
        const [, kinds] = await Promise.all([changer(), repeater()]);

        const history = await versionsOf(DATASET, 'ownership');
        expect(history.map((row) => row.version)).toEqual(Array.from({ length: history.length }, (_, v) => v));
        const values = (await valuesInWriteOrder(DATASET, 'ownership')).map((v) => JSON.stringify(v));
        expect(values.filter((v) => v !== '{"same":true}')).toEqual(Array.from({ length: rounds }, (_, i) => JSON.stringify({ i })));
        values.forEach((value, at) => at > 0 && expect(value).not.toBe(values[at - 1]));
        const repeaterVersions = kinds.filter((kind) => kind !== 'unchanged').length;
        expect(values.filter((v) => v === '{"same":true}')).toHaveLength(repeaterVersions);
      } finally {
        await other.close();
      }
    });

    it('one proposal delivered twice at once is applied once', async () => {
      const write = aspectWrite(DATASET, 'status', { removed: true });
      const kinds = (await Promise.all([store.write(write), store.write(write), store.write(write)])).map((o) => o.kind).sort();
      expect(kinds).toEqual(['created', 'replayed', 'replayed']);
      expect(await versionsOf(DATASET, 'status')).toHaveLength(1);
    });
  });

  describe('writes in flight together', () => {
    /** A store on a connection that records each command's name and collection. */
    async function watchedStore(): Promise<{ store: MongoAspectStore; commands: string[]; close: () => Promise<void> }> {
      const client = await MongoClient.connect(MONGODB_URI, { monitorCommands: true });
      const commands: string[] = [];
      client.on('commandStarted', (e) => commands.push(`${e.commandName} ${String(e.command[e.commandName])}`));
      const watched = await MongoAspectStore.open(client, client.db(dbName));
      commands.length = 0;
      return { store: watched, commands, close: () => watched.close() };
    }
    const urnOf = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,together${i},PROD)`;

    const directoryCommands = (commands: string[]) => commands.filter((c) => c.endsWith(` ${ENTITY_DIRECTORY_COLLECTION}`) || c.endsWith(` ${WRITE_LOCK_COLLECTION}`));

    it('insert their first versions in one request and name new entities in one more, an insert taking no lock', async () => {
      const watched = await watchedStore();
      try {
        const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => watched.store.write(aspectWrite(urnOf(i), 'status', { i }))));

        expect(outcomes.map((o) => o.kind)).toEqual(Array(12).fill('created'));
        expect(watched.commands.filter((c) => c === `insert ${ASPECT_COLLECTION}`)).toHaveLength(1);
        expect(directoryCommands(watched.commands)).toEqual([`insert ${ENTITY_DIRECTORY_COLLECTION}`]);
        for (let i = 0; i < 12; i++) expect(await names(urnOf(i))).toEqual(['status']);
        expect(await locks.countDocuments({})).toBe(0);
      } finally {
        await watched.close();
      }
    });

    it('name entities that have a directory document already under their locks, taken, used and given back in one request each', async () => {
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.write(aspectWrite(urnOf(i), 'status', { i }))));
      const watched = await watchedStore();
      try {
        await Promise.all([
          ...Array.from({ length: 3 }, (_, i) => watched.store.write(aspectWrite(urnOf(i), 'ownership', { i }))),
          ...Array.from({ length: 3 }, (_, i) => watched.store.write(aspectWrite(urnOf(10 + i), 'status', { i }))),
        ]);

        // The insert names the new entities and finds the others' documents there.
        expect(directoryCommands(watched.commands)).toEqual([
          `insert ${ENTITY_DIRECTORY_COLLECTION}`,
          `insert ${WRITE_LOCK_COLLECTION}`,
          `update ${ENTITY_DIRECTORY_COLLECTION}`,
          `delete ${WRITE_LOCK_COLLECTION}`,
        ]);
        for (let i = 0; i < 3; i++) expect(await names(urnOf(i))).toEqual(['ownership', 'status']);
        for (let i = 3; i < 6; i++) expect(await names(urnOf(i))).toEqual(['status']);
        for (let i = 10; i < 13; i++) expect(await names(urnOf(i))).toEqual(['status']);
        expect(await locks.countDocuments({})).toBe(0);
      } finally {
        await watched.close();
      }
    });

    it('insert keys written only if absent beside the aspects, in the same request, reading only a key found there', async () => {
      const watched = await watchedStore();
      try {
        await watched.store.write(aspectWrite(urnOf(0), 'datasetKey', { name: 'together0' }));
        watched.commands.length = 0;
        const [created, taken] = await Promise.all([
          watched.store.createIfAbsent(aspectWrite(urnOf(1), 'datasetKey', { name: 'together1' })),
          watched.store.createIfAbsent(aspectWrite(urnOf(0), 'datasetKey', { name: 'other' })),
          watched.store.write(aspectWrite(urnOf(1), 'status', { removed: false })),
        ]);

        expect(created?.aspect).toBe('datasetKey');
        expect(taken).toBeUndefined();
        expect(watched.commands.filter((c) => c === `insert ${ASPECT_COLLECTION}`)).toHaveLength(1);
        // Whether the key found there was this proposal's own (`createIfAbsent`).
        expect(watched.commands.filter((c) => c.startsWith('find '))).toEqual([`find ${ASPECT_COLLECTION}`]);
        expect(await names(urnOf(1))).toEqual(['datasetKey', 'status']);
      } finally {
        await watched.close();
      }
    });

    it('of a unit name their aspects when it ends, in one directory request', async () => {
      const watched = await watchedStore();
      try {
        await watched.store.unit(async (unit) => {
          for (let i = 0; i < 4; i++) {
            await unit.write(aspectWrite(urnOf(i), 'status', { i }));
            await unit.write(aspectWrite(urnOf(i), 'ownership', { i }));
          }
          expect(await names(urnOf(0))).toEqual([]);
        });

        expect(directoryCommands(watched.commands)).toEqual([`insert ${ENTITY_DIRECTORY_COLLECTION}`]);
        for (let i = 0; i < 4; i++) expect(await names(urnOf(i))).toEqual(['ownership', 'status']);
      } finally {
        await watched.close();
      }
    });

    it('of a unit that fails are named when its writes are delivered again', async () => {
      const w = aspectWrite(DATASET, 'status', { removed: false });
      await expect(
        store.unit(async (unit) => {
          await unit.write(w);
          throw new Error('the batch failed');
        }),
      ).rejects.toThrow('the batch failed');
      expect(await names(DATASET)).toEqual([]);
      expect((await store.unit((unit) => unit.write(w))).kind).toBe('replayed');
      expect(await names(DATASET)).toEqual(['status']);
    });

    it('of a unit that deletes what it created leave no name behind', async () => {
      await store.unit(async (unit) => {
        await unit.write(aspectWrite(DATASET, 'status', { removed: false }));
        await unit.write(aspectWrite(DATASET, 'ownership', { owners: [] }));
        await unit.deleteAspect(DATASET, 'ownership');
        await unit.write(aspectWrite(urnOf(1), 'status', { removed: false }));
        await unit.deleteEntity(urnOf(1));
      });
      const directory = raw.db(dbName).collection<{ _id: string; aspects: string[] }>(ENTITY_DIRECTORY_COLLECTION);
      expect(await directory.findOne({ _id: DATASET })).toMatchObject({ aspects: ['status'] });
      expect(await directory.findOne({ _id: urnOf(1) })).toMatchObject({ aspects: [] });
      expect(await store.exists(urnOf(1))).toBe(false);
    });

    it('of one aspect: one creates it, the other supersedes it', async () => {
      const outcomes = await Promise.all([store.write(aspectWrite(DATASET, 'status', { n: 1 })), store.write(aspectWrite(DATASET, 'status', { n: 2 }))]);

      expect(outcomes.map((o) => o.kind)).toEqual(['created', 'updated']);
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('name their entities while one entity\'s directory lock is held; that one waits for it alone', async () => {
      await Promise.all(Array.from({ length: 6 }, (_, i) => store.write(aspectWrite(urnOf(i), 'status', { i }))));
      const held = urnOf(0);
      await locks.insertOne({ _id: 'live-directory', key: aspectLockKey(held, '(directory)'), holder: 'the entity directory', acquiredAt: Date.now() });
      const writes = Array.from({ length: 6 }, (_, i) => store.write(aspectWrite(urnOf(i), 'ownership', { i })));
      await Promise.all(writes.slice(1));

      for (let i = 1; i < 6; i++) expect(await names(urnOf(i))).toEqual(['ownership', 'status']);
      expect(await names(held)).toEqual(['status']);
      await locks.deleteOne({ _id: 'live-directory' });
      expect((await writes[0]).kind).toBe('created');
      expect(await names(held)).toEqual(['ownership', 'status']);
      expect(await locks.countDocuments({})).toBe(0);
    });
  });

  describe('a crash between the history copy and the swap of version 0', () => {
    /** What a writer leaves when it dies after copying version 0 into the history. */
    async function copyLatestByHand(urn: string, aspect: string, version: number, replace: Partial<AspectDocument> = {}): Promise<void> {
      const { maxVersion: _onlyOnLatest, ...latest } = (await rows.findOne({ _id: rowId(urn, aspect, 0) }))!;
      await rows.insertOne({ ...latest, _id: rowId(urn, aspect, version), version, ...replace });
    }

    it('redelivery does not duplicate the copied version', async () => {
      await store.write(aspectWrite(DATASET, 'status', { step: 1 }));
      await store.write(aspectWrite(DATASET, 'status', { step: 2 }));
      const crashed = aspectWrite(DATASET, 'status', { step: 3 });
      await copyLatestByHand(DATASET, 'status', 2);

      const outcome = await store.write(crashed);
      expect(outcome.kind).toBe('updated');
      expect(outcome.kind === 'updated' && JSON.parse(outcome.previous.metadata)).toEqual({ step: 2 });
      expect((await versionsOf(DATASET, 'status')).map((r) => r.version)).toEqual([0, 1, 2]);
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);

      const again = await store.write(crashed);
      expect(again.kind).toBe('replayed');
      expect(again.kind === 'replayed' && again.previous && JSON.parse(again.previous.metadata)).toEqual({ step: 2 });
      expect(await versionsOf(DATASET, 'status')).toHaveLength(3);
    });

    it('a copy left from an outdated read of version 0 is replaced by the current one', async () => {
      await store.write(aspectWrite(DATASET, 'status', { step: 1 }));
      await store.write(aspectWrite(DATASET, 'status', { step: 2 }));
      await copyLatestByHand(DATASET, 'status', 2, { metadata: JSON.stringify({ outdated: true }), proposalId: 'proposal-outdated' });

      await store.write(aspectWrite(DATASET, 'status', { step: 3 }));
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
    });

    it('a refresh of the same value after the crash is what the history keeps', async () => {
      await store.write(aspectWrite(DATASET, 'status', { step: 1 }));
      const crashed = aspectWrite(DATASET, 'status', { step: 2 });
      await copyLatestByHand(DATASET, 'status', 1);
      const refresh = aspectWrite(DATASET, 'status', { step: 1 });
      expect((await store.write(refresh)).kind).toBe('unchanged');

      await store.write(crashed);
      const [, first] = await versionsOf(DATASET, 'status');
      expect(JSON.parse(first!.systemMetadata).lastObserved).toBe(refresh.systemMetadata.lastObserved);
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }, { step: 2 }]);
    });
  });

  describe('a writer that died holding the write lock', () => {
    it('is broken once its lease is over', async () => {
      await store.write(aspectWrite(DATASET, 'status', { step: 1 }));
      await locks.insertOne({ _id: 'dead-writer', key: aspectLockKey(DATASET, 'status'), holder: 'proposal 0:dead', acquiredAt: 0 });

      expect((await store.write(aspectWrite(DATASET, 'status', { step: 2 }))).kind).toBe('updated');
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }, { step: 2 }]);
      expect(await locks.countDocuments({})).toBe(0);
    });

    it('makes a change wait for a held lock; first writes and redeliveries do not wait', async () => {
      const first = aspectWrite(DATASET, 'status', { step: 1 });
      await store.write(first);
      await locks.insertOne({ _id: 'live-writer', key: aspectLockKey(DATASET, 'status'), holder: 'proposal 0:live', acquiredAt: Date.now() });

      const change = store.write(aspectWrite(DATASET, 'status', { step: 2 }));
      expect((await store.write(first)).kind).toBe('replayed');
      expect((await store.write(aspectWrite(DATASET, 'ownership', { owners: [] }))).kind).toBe('created');
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }]);

      await locks.deleteOne({ _id: 'live-writer' });
      expect((await change).kind).toBe('updated');
      expect(await valuesInWriteOrder(DATASET, 'status')).toEqual([{ step: 1 }, { step: 2 }]);
    });
  });

  describe('the entity directory (which aspects each URN has, read by _id)', () => {
    it('names an aspect again when its proposal is delivered again after its writer died before naming it', async () => {
      const w = aspectWrite(DATASET, 'status', { removed: false });
      // What a writer that died between the row insert and the directory update leaves behind.
      await rows.insertOne({ _id: rowId(DATASET, 'status', 0), urn: DATASET, aspect: 'status', version: 0, metadata: w.metadata, systemMetadata: JSON.stringify(w.systemMetadata), createdOn: w.createdOn, createdBy: w.createdBy, proposalId: w.proposalId, maxVersion: 0 });
      expect(await names(DATASET)).toEqual([]);
      expect((await store.write(w)).kind).toBe('replayed');
      expect(await names(DATASET)).toEqual(['status']);
      expect(await store.exists(DATASET)).toBe(true);
    });

    it('names an aspect found there already by a write only if absent (its writer may have died before naming it)', async () => {
      const w = aspectWrite(DATASET, 'datasetKey', { name: 'db.table' });
      await rows.insertOne({ _id: rowId(DATASET, 'datasetKey', 0), urn: DATASET, aspect: 'datasetKey', version: 0, metadata: w.metadata, systemMetadata: JSON.stringify(w.systemMetadata), createdOn: w.createdOn, createdBy: w.createdBy, proposalId: w.proposalId, maxVersion: 0 });
      expect(await names(DATASET)).toEqual([]);
      expect(await store.createIfAbsent(aspectWrite(DATASET, 'datasetKey', { name: 'db.table' }))).toBeUndefined();
      expect(await names(DATASET)).toEqual(['datasetKey']);
    });

    it('reads an entity with lookups by _id only, never a filter FerretDB would scan the collection for', async () => {
      await store.write(aspectWrite(DATASET, 'status', { removed: false }));
      await store.write(aspectWrite(DATASET, 'ownership', { owners: [] }));
      const monitored = await MongoClient.connect(MONGODB_URI, { monitorCommands: true });
      const filters: Record<string, unknown>[] = [];
      monitored.on('commandStarted', (e) => {
        if (e.commandName === 'find') filters.push(e.command.filter as Record<string, unknown>);
      });
      const watched = await MongoAspectStore.open(monitored, monitored.db(dbName));
      try {
        filters.length = 0;
        expect((await watched.getLatest([DATASET])).map((r) => r.aspect)).toEqual(['ownership', 'status']);
        expect(await watched.exists(DATASET)).toBe(true);
        expect(filters.length).toBeGreaterThan(0);
        // FerretDB answers a lone string _id from its index; MongoDB may also take many ids in one $in.
        const ferret = isFerretDb(await raw.db(dbName).admin().command({ buildInfo: 1 }));
        for (const filter of filters) {
          expect(Object.keys(filter)).toEqual(['_id']);
          if (ferret) expect(typeof filter._id).toBe('string');
        }
      } finally {
        await watched.close();
      }
    });

    it('names every aspect when many first writes of one entity race', async () => {
      const aspects = ['status', 'ownership', 'globalTags', 'glossaryTerms', 'institutionalMemory', 'deprecation'];
      for (let round = 0; round < 5; round++) {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,race${round},PROD)`;
        await Promise.all(aspects.map((aspect) => store.write(aspectWrite(urn, aspect, {}))));
        expect(await names(urn)).toEqual([...aspects].sort());
      }
    });

    it('is built from the rows of a database written before it existed', async () => {
      await store.write(aspectWrite(DATASET, 'status', { removed: false }));
      await store.write(aspectWrite(DATASET, 'ownership', { owners: [] }));
      await store.write(aspectWrite(DATASET, 'ownership', { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }] }));
      await raw.db(dbName).collection(ENTITY_DIRECTORY_COLLECTION).drop();
      const reopened = await openMongoAspectStore(MONGODB_URI, dbName);
      try {
        expect((await reopened.getLatest([DATASET])).map((row) => [row.aspect, row.version])).toEqual([
          ['ownership', 0],
          ['status', 0],
        ]);
        expect(await reopened.exists(DATASET)).toBe(true);
      } finally {
        await reopened.close();
      }
    });

    it('drops the names of deleted aspects and entities, and names a re-created one again', async () => {
      await store.write(aspectWrite(DATASET, 'status', { removed: false }));
      await store.write(aspectWrite(DATASET, 'ownership', { owners: [] }));
      await store.deleteAspect(DATASET, 'status');
      expect(await names(DATASET)).toEqual(['ownership']);
      await store.deleteEntity(DATASET);
      expect(await names(DATASET)).toEqual([]);
      expect(await store.exists(DATASET)).toBe(false);
      await store.write(aspectWrite(DATASET, 'status', { removed: true }));
      expect(await names(DATASET)).toEqual(['status']);
    });
  });

  describe('opening and closing', () => {
    it('keeps the rows\' query indexes where queries read them, and none on FerretDB, dropping those an earlier version made there', async () => {
      const ferret = isFerretDb(await raw.db(dbName).admin().command({ buildInfo: 1 }));
      const names = async () => (await rows.indexes()).map((index) => index.name).sort();
      await store.write(aspectWrite(DATASET, 'status', { removed: false }));
      if (ferret) {
        expect(await names()).toEqual(['_id_']);
        // As the store's earlier versions created them on any server.
        await rows.createIndex({ urn: 1, aspect: 1, version: 1 }, { unique: true, name: 'urn_aspect_version' });
        await rows.createIndex({ aspect: 1, version: 1, urn: 1 }, { name: 'aspect_version_urn' });
        await rows.createIndex({ aspect: 1 }, { name: 'someone_elses' });
        const again = await openMongoAspectStore(MONGODB_URI, dbName);
        await again.close();
        expect(await names()).toEqual(['_id_', 'someone_elses']);
      } else {
        const again = await openMongoAspectStore(MONGODB_URI, dbName);
        await again.close();
        expect(await names()).toEqual(['_id_', 'aspect_version_urn', 'urn_aspect_version', 'version_urn_aspect']);
        const { _id: _anotherId, ...copy } = (await rows.findOne({ urn: DATASET }))!;
        await expect(rows.insertOne({ ...copy, _id: 'another id' })).rejects.toMatchObject({ code: 11000 });
      }
      // The row's id is its URN, aspect and version: a second version 0 of the aspect cannot be inserted.
      const { _id, ...copy } = (await rows.findOne({ urn: DATASET }))!;
      await expect(rows.insertOne({ ...copy, _id })).rejects.toMatchObject({ code: 11000 });
    });

    it('close() closes the connection it owns', async () => {
      const own = await openMongoAspectStore(MONGODB_URI, dbName);
      await own.close();
      await expect(own.exists(DATASET)).rejects.toThrow();
      expect(await store.exists('urn:li:corpuser:nobody')).toBe(false);
    });
  });
});
