/**
 * The AspectStore contract: what every adapter (SQLite, MongoDB, ...) must do. An adapter's test
 * file calls `describeAspectStoreContract` with a factory that opens an empty store.
 */
import type { SystemMetadata } from '@cairn/events';
import { proposalMark, type AspectStore, type AspectWrite, type StoredAspect } from '@cairn/ports';

export interface OpenedAspectStore {
  readonly store: AspectStore;
  close(): Promise<void>;
}

const DS1 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)';
const USER = 'urn:li:corpuser:jdoe';
const ACTOR = 'urn:li:corpuser:writer';

let proposalSeq = 0;

function write(urn: string, aspect: string, value: unknown, extra: Partial<AspectWrite> & { systemMetadata?: SystemMetadata } = {}): AspectWrite {
  proposalSeq++;
  return {
    urn,
    aspect,
    metadata: typeof value === 'string' ? value : JSON.stringify(value),
    systemMetadata: { lastObserved: 1000 + proposalSeq, runId: `run-${proposalSeq}` },
    createdOn: 1_000_000 + proposalSeq,
    createdBy: ACTOR,
    proposalId: proposalMark(`0:${proposalSeq}`, 1_000_000 + proposalSeq),
    ...extra,
  };
}

const key = (r: StoredAspect) => `${r.urn} ${r.aspect} ${r.version}`;
const sorted = (rows: StoredAspect[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
const summary = (rows: StoredAspect[]) => sorted(rows).map((r) => [r.urn, r.aspect, r.version, JSON.parse(r.metadata)]);

export function describeAspectStoreContract(name: string, open: () => Promise<OpenedAspectStore>): void {
  describe(`AspectStore contract: ${name}`, () => {
    let opened: OpenedAspectStore;
    let store: AspectStore;

    beforeEach(async () => {
      opened = await open();
      store = opened.store;
    });
    afterEach(async () => {
      await opened.close();
    });

    describe('write outcomes', () => {
      it('creates version 0 on the first write', async () => {
        const w = write(DS1, 'status', { removed: false });
        const outcome = await store.write(w);
        expect(outcome.kind).toBe('created');
        expect(outcome.current).toEqual({
          urn: DS1,
          aspect: 'status',
          version: 0,
          metadata: w.metadata,
          systemMetadata: w.systemMetadata,
          createdOn: w.createdOn,
          createdBy: ACTOR,
        });
        expect(await store.getVersion(DS1, 'status', 0)).toEqual(outcome.current);
        expect(await store.getVersion(DS1, 'status', 1)).toBeUndefined();
      });

      it('keeps the previous latest as version max+1 on an update', async () => {
        const w1 = write(DS1, 'status', { removed: false });
        const w2 = write(DS1, 'status', { removed: true });
        const created = await store.write(w1);
        const updated = await store.write(w2);
        expect(updated.kind).toBe('updated');
        if (updated.kind !== 'updated') return;
        expect(updated.previous).toEqual(created.current);
        expect(updated.current).toMatchObject({ version: 0, metadata: w2.metadata, systemMetadata: w2.systemMetadata, createdOn: w2.createdOn });
        expect(await store.getVersion(DS1, 'status', 1)).toEqual({ ...created.current, version: 1 });
        expect(await store.getVersion(DS1, 'status', 0)).toEqual(updated.current);
      });

      it('numbers old versions 1, 2, 3 in the order they were written', async () => {
        const values = [{ removed: false }, { removed: true }, { removed: false }, { removed: true }].map((v, i) => ({ ...v, n: i }));
        for (const v of values) await store.write(write(DS1, 'status', v));
        expect(JSON.parse((await store.getVersion(DS1, 'status', 1))!.metadata)).toEqual(values[0]);
        expect(JSON.parse((await store.getVersion(DS1, 'status', 2))!.metadata)).toEqual(values[1]);
        expect(JSON.parse((await store.getVersion(DS1, 'status', 3))!.metadata)).toEqual(values[2]);
        expect(JSON.parse((await store.getVersion(DS1, 'status', 0))!.metadata)).toEqual(values[3]);
        expect(await store.getVersion(DS1, 'status', 4)).toBeUndefined();
        const last = await store.write(write(DS1, 'status', { removed: false, n: 99 }));
        expect(last.kind === 'updated' && JSON.parse(last.previous.metadata)).toEqual(values[3]);
        expect(JSON.parse((await store.getVersion(DS1, 'status', 4))!.metadata)).toEqual(values[3]);
      });

      it('keeps versions per aspect and per URN', async () => {
        await store.write(write(DS1, 'status', { removed: false }));
        await store.write(write(DS1, 'status', { removed: true }));
        await store.write(write(DS1, 'ownership', { owners: [] }));
        await store.write(write(DS2, 'status', { removed: true }));
        expect(await store.getVersion(DS1, 'ownership', 1)).toBeUndefined();
        expect(await store.getVersion(DS2, 'status', 1)).toBeUndefined();
        expect(await store.getVersion(DS1, 'status', 1)).toBeDefined();
      });

      it('only refreshes lastObserved on an identical write, whatever its key order', async () => {
        const w1 = write(DS1, 'datasetProperties', '{"name":"n","customProperties":{"a":"1","b":"2"}}', {
          systemMetadata: { lastObserved: 10, runId: 'first-run', registryName: 'cairn' },
        });
        const w2 = write(DS1, 'datasetProperties', '{"customProperties":{"b":"2","a":"1"},"name":"n"}', {
          systemMetadata: { lastObserved: 20, runId: 'second-run', registryName: 'cairn' },
          createdOn: 9_999_999,
          createdBy: 'urn:li:corpuser:someone_else',
        });
        const created = await store.write(w1);
        const outcome = await store.write(w2);
        expect(outcome.kind).toBe('unchanged');
        const expected = { ...created.current, systemMetadata: { lastObserved: 20, runId: 'first-run', registryName: 'cairn' } };
        expect(outcome.current).toEqual(expected);
        expect(await store.getVersion(DS1, 'datasetProperties', 0)).toEqual(expected);
        expect(await store.getVersion(DS1, 'datasetProperties', 1)).toBeUndefined();
      });

      it('answers a redelivered proposal with replayed and writes nothing', async () => {
        const w1 = write(DS1, 'status', { removed: false });
        const w2 = write(DS1, 'status', { removed: true });
        const created = await store.write(w1);
        const updated = await store.write(w2);
        const replayed = await store.write({ ...w2, systemMetadata: { ...w2.systemMetadata, lastObserved: 99_999 } });
        expect(replayed.kind).toBe('replayed');
        expect(replayed.current).toEqual(updated.current);
        expect(replayed.kind === 'replayed' && replayed.previous).toEqual({ ...created.current, version: 1 });
        expect(await store.getVersion(DS1, 'status', 0)).toEqual(updated.current);
        expect(await store.getVersion(DS1, 'status', 2)).toBeUndefined();
      });

      it('answers a redelivered first write with replayed and no previous', async () => {
        const w1 = write(DS1, 'status', { removed: false });
        const created = await store.write(w1);
        const replayed = await store.write(w1);
        expect(replayed.kind).toBe('replayed');
        expect(replayed.current).toEqual(created.current);
        expect(replayed.kind === 'replayed' ? replayed.previous : 'n/a').toBeUndefined();
        expect(await store.getVersion(DS1, 'status', 1)).toBeUndefined();
      });

      it('answers a redelivered identical write with replayed', async () => {
        await store.write(write(DS1, 'status', { removed: false }));
        const again = write(DS1, 'status', { removed: false });
        expect((await store.write(again)).kind).toBe('unchanged');
        expect((await store.write(again)).kind).toBe('replayed');
      });

      it('recognises a redelivered batch: proposals superseded since write no version', async () => {
        // A consumer that died after applying a batch and before committing gets all of it again.
        const batch = [write(DS1, 'status', { removed: false }), write(DS1, 'status', { removed: true }), write(DS1, 'status', { removed: false })];
        for (const w of batch) await store.write(w);
        const latest = await store.getVersion(DS1, 'status', 0);
        for (const w of batch) {
          const again = await store.write(w);
          expect(again.kind).toBe('replayed');
          expect(again.current).toEqual(latest);
        }
        expect(summary([(await store.getVersion(DS1, 'status', 1))!, (await store.getVersion(DS1, 'status', 2))!])).toEqual([
          [DS1, 'status', 1, { removed: false }],
          [DS1, 'status', 2, { removed: true }],
        ]);
        expect(await store.getVersion(DS1, 'status', 3)).toBeUndefined();
        expect(await store.getVersion(DS1, 'status', 0)).toEqual(latest);
      });

      it('recognises a superseded proposal after an identical write refreshed the latest', async () => {
        const first = write(DS1, 'status', { removed: false });
        const same = write(DS1, 'status', { removed: false });
        const changed = write(DS1, 'status', { removed: true });
        for (const w of [first, same, changed]) await store.write(w);
        for (const w of [first, same]) expect((await store.write(w)).kind).toBe('replayed');
        expect(JSON.parse((await store.getVersion(DS1, 'status', 0))!.metadata)).toEqual({ removed: true });
        expect(await store.getVersion(DS1, 'status', 2)).toBeUndefined();
      });

      it('applies a proposal appended after the stored one even at a smaller offset (a log started again)', async () => {
        await store.write(write(DS1, 'status', { removed: false }, { proposalId: proposalMark('0:500', 1_000) }));
        const outcome = await store.write(write(DS1, 'status', { removed: true }, { proposalId: proposalMark('0:3', 2_000) }));
        expect(outcome.kind).toBe('updated');
        expect(JSON.parse((await store.getVersion(DS1, 'status', 0))!.metadata)).toEqual({ removed: true });
      });

      it('does not mistake the same proposal id on another aspect for a redelivery', async () => {
        const w = write(DS1, 'status', { removed: false });
        await store.write(w);
        expect((await store.write({ ...w, aspect: 'ownership', metadata: '{"owners":[]}' })).kind).toBe('created');
      });
    });

    describe('createIfAbsent', () => {
      it('writes version 0 when the aspect has none and returns it', async () => {
        const w = write(DS1, 'datasetKey', { name: 'db.one' });
        const created = await store.createIfAbsent(w);
        expect(created).toEqual({ urn: DS1, aspect: 'datasetKey', version: 0, metadata: w.metadata, systemMetadata: w.systemMetadata, createdOn: w.createdOn, createdBy: ACTOR });
        expect(await store.getVersion(DS1, 'datasetKey', 0)).toEqual(created);
        expect(await store.getLatest([DS1])).toEqual([created]);
      });

      it('leaves a stored latest as it is, whatever the value, and answers undefined', async () => {
        const first = await store.write(write(DS1, 'datasetKey', { name: 'db.one' }));
        expect(await store.createIfAbsent(write(DS1, 'datasetKey', { name: 'other' }))).toBeUndefined();
        expect(await store.getVersion(DS1, 'datasetKey', 0)).toEqual(first.current);
        expect(await store.getVersion(DS1, 'datasetKey', 1)).toBeUndefined();
      });

      it('answers the row a write of the same proposal made, which still owes its change log', async () => {
        const w = write(DS1, 'datasetKey', { name: 'db.one' });
        const created = await store.createIfAbsent(w);
        expect(await store.createIfAbsent(w)).toEqual(created);
        expect(await store.createIfAbsent({ ...w, proposalId: `${w.proposalId}/other` })).toBeUndefined();
        expect(await store.getVersion(DS1, 'datasetKey', 1)).toBeUndefined();
      });

      it('writes it again after the entity was deleted, and a later write supersedes it as usual', async () => {
        await store.createIfAbsent(write(DS1, 'datasetKey', { name: 'db.one' }));
        await store.deleteEntity(DS1);
        expect((await store.createIfAbsent(write(DS1, 'datasetKey', { name: 'db.one' })))?.version).toBe(0);
        expect((await store.write(write(DS1, 'datasetKey', { name: 'db.two' }))).kind).toBe('updated');
        expect(JSON.parse((await store.getVersion(DS1, 'datasetKey', 1))!.metadata)).toEqual({ name: 'db.one' });
      });
    });

    describe('reads', () => {
      beforeEach(async () => {
        await store.write(write(DS1, 'status', { removed: false }));
        await store.write(write(DS1, 'status', { removed: true }));
        await store.write(write(DS1, 'ownership', { owners: [] }));
        await store.write(write(DS2, 'status', { removed: false }));
        await store.write(write(USER, 'corpUserInfo', { active: true }));
      });

      it('getLatest returns version 0 of every aspect of the URNs', async () => {
        expect(summary(await store.getLatest([DS1, DS2]))).toEqual([
          [DS1, 'ownership', 0, { owners: [] }],
          [DS1, 'status', 0, { removed: true }],
          [DS2, 'status', 0, { removed: false }],
        ]);
      });

      it('getLatest filters by aspect', async () => {
        expect(summary(await store.getLatest([DS1, DS2, USER], ['status']))).toEqual([
          [DS1, 'status', 0, { removed: true }],
          [DS2, 'status', 0, { removed: false }],
        ]);
        expect(summary(await store.getLatest([DS1, USER], ['ownership', 'corpUserInfo']))).toEqual([
          [USER, 'corpUserInfo', 0, { active: true }],
          [DS1, 'ownership', 0, { owners: [] }],
        ]);
      });

      it('getLatest skips what does not exist', async () => {
        expect(await store.getLatest(['urn:li:corpuser:nobody'])).toEqual([]);
        expect(await store.getLatest([DS2], ['ownership'])).toEqual([]);
        expect(await store.getLatest([])).toEqual([]);
        expect(await store.getLatest([DS1], [])).toEqual([]);
      });

      it('getVersion reads one version', async () => {
        expect(JSON.parse((await store.getVersion(DS1, 'status', 1))!.metadata)).toEqual({ removed: false });
        expect((await store.getVersion(DS1, 'status', 1))!.version).toBe(1);
        expect(await store.getVersion(DS1, 'status', 2)).toBeUndefined();
        expect(await store.getVersion(DS1, 'nope', 0)).toBeUndefined();
      });

      it('exists tells whether a URN has any row', async () => {
        expect(await store.exists(DS1)).toBe(true);
        expect(await store.exists(USER)).toBe(true);
        expect(await store.exists('urn:li:corpuser:nobody')).toBe(false);
      });
    });

    describe('deletes', () => {
      beforeEach(async () => {
        for (const removed of [false, true, false]) await store.write(write(DS1, 'status', { removed }));
        await store.write(write(DS1, 'ownership', { owners: [] }));
        await store.write(write(DS1, 'ownership', { owners: [{ owner: USER, type: 'DATAOWNER' }] }));
        await store.write(write(DS2, 'status', { removed: false }));
      });

      it('deleteAspect removes every version and returns the latest', async () => {
        const latest = await store.getVersion(DS1, 'status', 0);
        const result = await store.deleteAspect(DS1, 'status');
        expect(result).toEqual({ latest, rows: 3 });
        expect(await store.getLatest([DS1], ['status'])).toEqual([]);
        expect(await store.getVersion(DS1, 'status', 1)).toBeUndefined();
        expect(await store.getVersion(DS1, 'status', 2)).toBeUndefined();
        expect(summary(await store.getLatest([DS1, DS2]))).toEqual([
          [DS1, 'ownership', 0, { owners: [{ owner: USER, type: 'DATAOWNER' }] }],
          [DS2, 'status', 0, { removed: false }],
        ]);
        expect(await store.exists(DS1)).toBe(true);
      });

      it('deleteAspect of nothing removes nothing', async () => {
        expect(await store.deleteAspect(DS2, 'ownership')).toEqual({ rows: 0 });
        expect(await store.deleteAspect('urn:li:corpuser:nobody', 'status')).toEqual({ rows: 0 });
      });

      it('deleteEntity removes every row of the URN and returns the latest rows', async () => {
        const before = await store.getLatest([DS1]);
        const result = await store.deleteEntity(DS1);
        expect(result.rows).toBe(5);
        expect(sorted(result.latest)).toEqual(sorted(before));
        expect(result.latest.map((r) => r.version)).toEqual([0, 0]);
        expect(await store.exists(DS1)).toBe(false);
        expect(await store.getLatest([DS1])).toEqual([]);
        expect(await store.getVersion(DS1, 'ownership', 1)).toBeUndefined();
        expect(await store.exists(DS2)).toBe(true);
      });

      it('deleteEntity of nothing removes nothing', async () => {
        expect(await store.deleteEntity('urn:li:corpuser:nobody')).toEqual({ latest: [], rows: 0 });
      });

      it('starts again at version 0 after a delete', async () => {
        await store.deleteEntity(DS1);
        const outcome = await store.write(write(DS1, 'status', { removed: true }));
        expect(outcome.kind).toBe('created');
        expect(await store.getVersion(DS1, 'status', 1)).toBeUndefined();
      });
    });

    describe('scans', () => {
      const URNS = [
        'urn:li:corpuser:a_b',
        'urn:li:corpuser:aXb',
        'urn:li:corpuser:a%b',
        'urn:li:corpuser:zed',
        'urn:li:my_type:one',
        'urn:li:myXtype:two',
        DS1,
        DS2,
      ];

      beforeEach(async () => {
        for (const urn of URNS) {
          await store.write(write(urn, 'status', { removed: false }));
          await store.write(write(urn, 'status', { removed: true }));
        }
        await store.write(write(DS1, 'ownership', { owners: [] }));
        await store.write(write('urn:li:corpuser:zed', 'corpUserInfo', { active: true }));
      });

      const pairs = (rows: StoredAspect[]) => rows.map((r) => `${r.urn} ${r.aspect}`);
      const scanAll = (scan: Parameters<AspectStore['countLatest']>[0]) => store.scanLatest({ ...scan, start: 0, limit: 1000 });

      it('scans latest rows in (urn, aspect) order', async () => {
        const rows = await scanAll({});
        const expected = [...URNS.map((u) => `${u} status`), `${DS1} ownership`, 'urn:li:corpuser:zed corpUserInfo'].sort();
        expect(pairs(rows)).toEqual(expected);
        expect(rows.every((r) => r.version === 0)).toBe(true);
        expect(await store.countLatest({})).toBe(expected.length);
      });

      it('gives every latest row once, in batches of at most the size asked, for a full rebuild', async () => {
        const batches: StoredAspect[][] = [];
        for await (const batch of store.latestInBatches(2)) batches.push(batch);
        expect(batches.every((b) => b.length > 0 && b.length <= 2)).toBe(true);
        const rows = batches.flat();
        expect(pairs(rows).sort()).toEqual(pairs(await scanAll({})));
        expect(rows.every((r) => r.version === 0)).toBe(true);
        expect(rows.find((r) => r.urn === URNS[0] && r.aspect === 'status')?.metadata).toBe(JSON.stringify({ removed: true }));
      });

      it('pages with start and limit', async () => {
        const all = pairs(await scanAll({}));
        expect(pairs(await store.scanLatest({ start: 0, limit: 3 }))).toEqual(all.slice(0, 3));
        expect(pairs(await store.scanLatest({ start: 3, limit: 3 }))).toEqual(all.slice(3, 6));
        expect(pairs(await store.scanLatest({ start: 9, limit: 3 }))).toEqual(all.slice(9));
        expect(await store.scanLatest({ start: 100, limit: 3 })).toEqual([]);
      });

      it('pages by position after an (urn, aspect)', async () => {
        const rows = await scanAll({});
        const all = pairs(rows);
        const after = (i: number) => ({ urn: rows[i]!.urn, aspect: rows[i]!.aspect });
        expect(pairs(await store.scanLatest({ after: after(2), start: 0, limit: 3 }))).toEqual(all.slice(3, 6));
        // Same URN, later aspect: DS1's ownership comes before its status.
        const ownership = all.indexOf(`${DS1} ownership`);
        expect(pairs(await store.scanLatest({ after: after(ownership), start: 0, limit: 1 }))).toEqual([`${DS1} status`]);
        expect(await store.scanLatest({ after: after(all.length - 1), start: 0, limit: 3 })).toEqual([]);
        expect(pairs(await store.scanLatest({ after: after(0), aspect: 'status', start: 0, limit: 1000 }))).toEqual(all.slice(1).filter((p) => p.endsWith(' status')));
        expect(await store.countLatest({ after: after(all.length - 2) })).toBe(1);
      });

      it('filters by URN and by aspect', async () => {
        expect(pairs(await scanAll({ urn: DS1 }))).toEqual([`${DS1} ownership`, `${DS1} status`]);
        expect(await store.countLatest({ urn: DS1 })).toBe(2);
        expect(pairs(await scanAll({ aspect: 'ownership' }))).toEqual([`${DS1} ownership`]);
        expect(await store.countLatest({ aspect: 'status' })).toBe(URNS.length);
        expect(pairs(await scanAll({ urn: DS1, aspect: 'status' }))).toEqual([`${DS1} status`]);
        expect(await store.countLatest({ aspect: 'nope' })).toBe(0);
      });

      it('filters by entity type, taking _ literally', async () => {
        expect(pairs(await scanAll({ entityType: 'corpuser' }))).toEqual(
          ['urn:li:corpuser:a%b status', 'urn:li:corpuser:aXb status', 'urn:li:corpuser:a_b status', 'urn:li:corpuser:zed corpUserInfo', 'urn:li:corpuser:zed status'].sort(),
        );
        expect(pairs(await scanAll({ entityType: 'my_type' }))).toEqual(['urn:li:my_type:one status']);
        expect(await store.countLatest({ entityType: 'dataset' })).toBe(3);
        expect(await store.countLatest({ entityType: 'dataset', aspect: 'status' })).toBe(2);
        expect(await store.countLatest({ entityType: 'data' })).toBe(0);
      });

      it('filters by urnLike with % as any run and _ as one character', async () => {
        expect(pairs(await scanAll({ urnLike: 'urn:li:dataset:%' }))).toEqual([`${DS1} ownership`, `${DS1} status`, `${DS2} status`]);
        expect(await store.countLatest({ urnLike: '%db.two%' })).toBe(1);
        expect(pairs(await scanAll({ urnLike: 'urn:li:corpuser:a_b', aspect: 'status' }))).toEqual(
          ['urn:li:corpuser:a%b status', 'urn:li:corpuser:aXb status', 'urn:li:corpuser:a_b status'].sort(),
        );
        expect(await store.countLatest({ urnLike: 'urn:li:corpuser:zed' })).toBe(2);
        expect(await store.countLatest({ urnLike: 'urn:li:corpuser:ze' })).toBe(0);
        // URNs are case-sensitive, as in the reference's store.
        expect(await store.countLatest({ urnLike: 'URN:LI:DATASET:%' })).toBe(0);
      });

      it('takes \\_ and \\% in urnLike literally', async () => {
        expect(pairs(await scanAll({ urnLike: 'urn:li:corpuser:a\\_b' }))).toEqual(['urn:li:corpuser:a_b status']);
        expect(pairs(await scanAll({ urnLike: 'urn:li:corpuser:a\\%b' }))).toEqual(['urn:li:corpuser:a%b status']);
        expect(await store.countLatest({ urnLike: 'urn:li:my\\_type:%' })).toBe(1);
      });

      it('combines filters', async () => {
        expect(await store.countLatest({ entityType: 'corpuser', urnLike: '%z%', aspect: 'status' })).toBe(1);
        expect(pairs(await store.scanLatest({ entityType: 'corpuser', aspect: 'status', start: 1, limit: 2 }))).toEqual(
          ['urn:li:corpuser:a%b status', 'urn:li:corpuser:aXb status', 'urn:li:corpuser:a_b status', 'urn:li:corpuser:zed status'].sort().slice(1, 3),
        );
      });
    });
  });
}
