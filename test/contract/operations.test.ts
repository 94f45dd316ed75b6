/**
 * Operations: time-series truncation (dry run text at every path, real run as a task in batches),
 * index sizes, index restore (a page at a time) after edges or search documents are wiped, a full
 * rebuild from the store, and deleteReferences.
 */
import { wipeSearchDocument } from '../support/indexes';
import { action, ds, entities, expectRestliError, indexed } from '../support/search';
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const write = async (p: ReturnType<typeof proposal>) => expect((await call(t, 'POST', '/aspects?action=ingestProposal', p)).status).toBe(200);
const dashboard = (id: string) => `urn:li:dashboard:(looker,${id})`;
const usage = (timestampMillis: number) => ({ timestampMillis, eventGranularity: { unit: 'DAY', multiple: 1 }, viewsCount: 1 });
const DRY_RUN = /^Delete (\d+) out of (\d+) rows \((\d+\.\d\d)%\)\. (Reindexing the aspect without the deleted records|Issuing a delete by query request)\. This was a dry run\. Run with dryRun = false to execute\.$/;
const usageValues = async (urn: string) =>
  (await action(t, 'aspects', 'getTimeseriesAspectValues', { urn, entity: 'dashboard', aspect: 'dashboardUsageStatistics' })).values.map(
    (v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis,
  );

async function taskDone(task: string): Promise<{ completed: boolean; taskId: string; status: Record<string, unknown>; runTimeNanos: number }> {
  return indexed(async () => {
    const status = JSON.parse(await action<string>(t, 'operations', 'getEsTaskStatus', { task }));
    expect(status.completed).toBe(true);
    return status;
  });
}

describe('truncateTimeseriesAspect', () => {
  it('reports a dry run in the reference words at every operations path', async () => {
    const urn = dashboard(unique('truncate_dry'));
    for (const ts of [1000, 2000, 3000, 4000]) await write(proposal(urn, 'dashboardUsageStatistics', usage(ts)));
    await indexed(async () => expect(await usageValues(urn)).toHaveLength(4));
    for (const prefix of ['', '/gms', '/api/gms']) {
      const res = await call(t, 'POST', `${prefix}/operations?action=truncateTimeseriesAspect`, { entityType: 'dashboard', aspect: 'dashboardUsageStatistics', endTimeMillis: 3500 });
      expect(res.status).toBe(200);
      const m = DRY_RUN.exec(res.body.value);
      expect(m).not.toBeNull();
      const [, deleted, total, pct, how] = m as RegExpExecArray;
      expect(Number(deleted)).toBeGreaterThanOrEqual(3);
      expect(pct).toBe(((100 * Number(deleted)) / Number(total)).toFixed(2));
      expect(how).toBe(Number(deleted) > Number(total) / 2 ? 'Reindexing the aspect without the deleted records' : 'Issuing a delete by query request');
    }
    const none = await action<string>(t, 'operations', 'truncateTimeseriesAspect', { entityType: 'dashboard', aspect: 'dashboardUsageStatistics', endTimeMillis: 0, dryRun: true });
    expect(none).toMatch(/^Delete 0 out of \d+ rows \(0\.00%\)\. Issuing a delete by query request\. This was a dry run\. Run with dryRun = false to execute\.$/);
    expect(await usageValues(urn)).toHaveLength(4);
  });

  it('deletes for real as a task whose status can be polled', async () => {
    const urn = dashboard(unique('truncate_run'));
    for (const ts of [1001, 2001, 5_000_000_000_000]) await write(proposal(urn, 'dashboardUsageStatistics', usage(ts)));
    await indexed(async () => expect(await usageValues(urn)).toHaveLength(3));
    const task = await action<string>(t, 'api/gms/operations', 'truncateTimeseriesAspect', {
      entityType: 'dashboard',
      aspect: 'dashboardUsageStatistics',
      endTimeMillis: 3000,
      dryRun: false,
      batchSize: 1,
    });
    expect(task).toMatch(/^[a-zA-Z0-9-_]+:[0-9]+$/);
    const status = await taskDone(task);
    expect(status).toMatchObject({ completed: true, taskId: task, runTimeNanos: expect.any(Number) });
    const [nodeId, taskId] = task.split(':');
    expect(JSON.parse(await action<string>(t, 'gms/operations', 'getEsTaskStatus', { nodeId, taskId })).taskId).toBe(task);
    expect(await usageValues(urn)).toEqual([5_000_000_000_000]);
  });

  it('deletes in batches of batchSize, within timeoutSeconds, reporting them in the task status', async () => {
    // Chart usage is written by no other test: what is older than the cut is this test's alone.
    const chartUsage = (timestampMillis: number) => ({ timestampMillis, eventGranularity: { unit: 'DAY', multiple: 1 }, viewsCount: 1 });
    const truncate = (extra: Record<string, unknown>) =>
      action<string>(t, 'operations', 'truncateTimeseriesAspect', { entityType: 'chart', aspect: 'chartUsageStatistics', endTimeMillis: 1000, dryRun: false, ...extra });
    const chartValues = async (urn: string) =>
      (await action(t, 'aspects', 'getTimeseriesAspectValues', { urn, entity: 'chart', aspect: 'chartUsageStatistics' })).values.map(
        (v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis,
      );
    await taskDone(await truncate({})); // what an interrupted earlier run may have left
    const urn = `urn:li:chart:(looker,${unique('truncate_batches')})`;
    for (const ts of [1, 2, 3, 4, 5, 5_000_000_000_000]) await write(proposal(urn, 'chartUsageStatistics', chartUsage(ts)));
    await indexed(async () => expect(await chartValues(urn)).toHaveLength(6));

    const task = await truncate({ batchSize: 2, timeoutSeconds: 60 });
    const status = await taskDone(task);
    expect(status.status).toMatchObject({ total: 5, deleted: 5, batches: 3, timed_out: false });
    expect(await chartValues(urn)).toEqual([5_000_000_000_000]);

    // A timeout of 0 is none, as in the reference.
    for (const ts of [10, 11, 12]) await write(proposal(urn, 'chartUsageStatistics', chartUsage(ts)));
    await indexed(async () => expect(await chartValues(urn)).toHaveLength(4));
    const again = await taskDone(await truncate({ batchSize: 3, timeoutSeconds: 0 }));
    expect(again.status).toMatchObject({ total: 3, deleted: 3, batches: 1, timed_out: false });
    expect(await chartValues(urn)).toEqual([5_000_000_000_000]);
  });

  it('rejects bad arguments and task ids', async () => {
    const truncate = (params: Record<string, unknown>) => call(t, 'POST', '/operations?action=truncateTimeseriesAspect', params);
    expectRestliError(await truncate({ entityType: 'dashboard', aspect: 'dashboardInfo', endTimeMillis: 1 }), 400, /not a time-series aspect/);
    expectRestliError(await truncate({ entityType: 'spaceship', aspect: 'x', endTimeMillis: 1 }), 400, /Unknown entity type/);
    expectRestliError(await truncate({ entityType: 'dashboard', aspect: 'dashboardUsageStatistics' }), 400, /endTimeMillis/);
    expectRestliError(await truncate({ entityType: 'dashboard', aspect: 'dashboardUsageStatistics', endTimeMillis: 1, batchSize: 0 }), 400, /batchSize/);
    for (const dryRun of [true, false]) {
      const usageTruncate = { entityType: 'dashboard', aspect: 'dashboardUsageStatistics', endTimeMillis: 1, dryRun };
      expectRestliError(await truncate({ ...usageTruncate, batchSize: -5 }), 400, /batchSize/);
      expectRestliError(await truncate({ ...usageTruncate, timeoutSeconds: -1 }), 400, /timeoutSeconds/);
      expectRestliError(await truncate({ ...usageTruncate, timeoutSeconds: 'soon' }), 400, /timeoutSeconds/);
    }
    expectRestliError(await call(t, 'POST', '/operations?action=getEsTaskStatus', { task: 'no task here' }), 400, /nodeId/);
    expectRestliError(await call(t, 'POST', '/operations?action=getEsTaskStatus', {}), 400, /task/);
    expectRestliError(await call(t, 'POST', '/operations?action=getEsTaskStatus', { task: 'nowhere:12345' }), 404, /No task/);
  });
});

describe('index sizes', () => {
  it('lists the time-series indexes with their sizes', async () => {
    const urn = dashboard(unique('sizes'));
    await write(proposal(urn, 'dashboardUsageStatistics', usage(7000)));
    const sizes = await indexed(async () => {
      const v = await action(t, 'operations', 'getIndexSizes', {});
      expect(v.indexSizes).toContainEqual(expect.objectContaining({ entityName: 'dashboard', aspectName: 'dashboardUsageStatistics' }));
      return v.indexSizes;
    });
    const entry = sizes.find((s: { aspectName: string }) => s.aspectName === 'dashboardUsageStatistics');
    // A deployment with an index prefix names its indexes `<prefix>_dashboard_...`.
    expect(entry).toEqual({
      indexName: expect.stringMatching(/^([a-z0-9_-]+_)?dashboard_dashboardusagestatisticsaspect_v1$/),
      entityName: 'dashboard',
      aspectName: 'dashboardUsageStatistics',
      sizeMb: expect.any(Number),
    });
    expect(entry.sizeMb).toBeGreaterThan(0);
  });
});

describe('restoring indexes from the store', () => {
  const outgoing = async (urn: string) => (await call(t, 'GET', `/relationships?urn=${enc(urn)}&direction=OUTGOING`)).body.entities as string[];

  it('restores one entity after its edges were wiped, also through /aspects', async () => {
    const urn = ds('hive', unique('restore'));
    const owner = `urn:li:corpuser:${unique('owner')}`;
    await write(proposal(urn, 'ownership', { owners: [{ owner, type: 'DATAOWNER' }], lastModified: { time: 1, actor: owner } }));
    await indexed(async () => expect(await outgoing(urn)).toEqual([owner]));
    expect((await call(t, 'DELETE', `/relationships?urn=${enc(urn)}`)).status).toBe(200);
    expect(await outgoing(urn)).toEqual([]);
    const summary = await action<string>(t, 'gms/operations', 'restoreIndices', { urn });
    expect(summary).toMatch(/rowsMigrated=[1-9]/);
    expect(summary).toContain(`urn=${urn}`);
    await indexed(async () => expect(await outgoing(urn)).toEqual([owner]));
    expect((await call(t, 'DELETE', `/relationships?urn=${enc(urn)}`)).status).toBe(200);
    const viaAspects = await action<string>(t, 'aspects', 'restoreIndices', { aspect: 'ownership', urnLike: urn.replace(/restore_.*$/, '%'), start: 0, batchSize: 1000 });
    expect(viaAspects).toMatch(/rowsMigrated=[1-9]/);
    await indexed(async () => expect(await outgoing(urn)).toEqual([owner]));
  });

  it('restores batchSize rows from start, in URN order', async () => {
    const base = unique('paged');
    const urns = [0, 1, 2, 3, 4].map((i) => ds('hive', `${base}-${i}`));
    const owner = `urn:li:corpuser:${unique('pager')}`;
    for (const urn of urns) await write(proposal(urn, 'ownership', { owners: [{ owner, type: 'DATAOWNER' }], lastModified: { time: 1, actor: owner } }));
    await indexed(async () => expect(await Promise.all(urns.map(outgoing))).toEqual(urns.map(() => [owner])));
    for (const urn of urns) expect((await call(t, 'DELETE', `/relationships?urn=${enc(urn)}`)).status).toBe(200);
    expect(await Promise.all(urns.map(outgoing))).toEqual(urns.map(() => []));

    const urnLike = ds('hive', `${base}-%`);
    const restore = (start: number, batchSize: number) => action<string>(t, 'operations', 'restoreIndices', { aspect: 'ownership', urnLike, start, batchSize });
    const restoredOf = async () => (await Promise.all(urns.map(outgoing))).map((o) => o.length > 0);
    const first = await restore(0, 2);
    expect(first).toContain(`RestoreIndicesArgs(start=0, batchSize=2, aspectName=ownership, urn=null, urnLike=${urnLike})`);
    expect(first).toMatch(/rowsMigrated=2,/);
    await indexed(async () => expect(await restoredOf()).toEqual([true, true, false, false, false]));
    const second = await restore(2, 2);
    expect(second).toContain('RestoreIndicesArgs(start=2, batchSize=2,');
    expect(second).toMatch(/rowsMigrated=2,/);
    await indexed(async () => expect(await restoredOf()).toEqual([true, true, true, true, false]));
    expect(await restore(4, 2)).toMatch(/rowsMigrated=1,/);
    await indexed(async () => expect(await restoredOf()).toEqual([true, true, true, true, true]));
    expect(await restore(5, 2)).toMatch(/rowsMigrated=0,/);
    // The default batch is 10 rows: all five from the start.
    for (const urn of urns) expect((await call(t, 'DELETE', `/relationships?urn=${enc(urn)}`)).status).toBe(200);
    expect(await action<string>(t, 'operations', 'restoreIndices', { aspect: 'ownership', urnLike })).toMatch(/batchSize=10, .*rowsMigrated=5,/);
    await indexed(async () => expect(await restoredOf()).toEqual([true, true, true, true, true]));
  });

  it('restores search documents after they were wiped', async () => {
    const name = unique('Wiped');
    const urn = ds('hive', name);
    await write(proposal(urn, 'datasetProperties', { name, description: `restored ${name}`, customProperties: {} }));
    await write(proposal(urn, 'globalTags', { tags: [{ tag: `urn:li:tag:${name}` }] }));
    const found = async (input: string) => (await entities(t, 'search', { entity: 'dataset', input, start: 0, count: 5 })).entities;
    // Both writes indexed (they may be projected in separate batches): the document and the tag edge.
    await indexed(async () => {
      expect(await found(`tags:${name}`)).toEqual([urn]);
      expect(await outgoing(urn)).toEqual([`urn:li:tag:${name}`]);
    });
    await wipeSearchDocument(t, 'dataset', urn);
    await indexed(async () => {
      expect(await found(name)).toEqual([]);
      expect(await found(`tags:${name}`)).toEqual([]);
    });
    // The store and the edges are untouched: only the search side was lost.
    expect(await outgoing(urn)).toEqual([`urn:li:tag:${name}`]);

    const summary = await action<string>(t, 'operations', 'restoreIndices', { urn });
    expect(summary).toMatch(/rowsMigrated=[2-9],/);
    await indexed(async () => {
      expect(await found(name)).toEqual([urn]);
      expect(await found(`tags:${name}`)).toEqual([urn]);
    });
  });

  it('rebuilds every index from the store, reporting progress', async () => {
    const name = unique('Rebuilt');
    const urn = ds('hive', name);
    await write(proposal(urn, 'datasetProperties', { name, customProperties: {} }));
    await write(proposal(urn, 'globalTags', { tags: [{ tag: `urn:li:tag:${name}` }] }));
    await indexed(async () => expect((await entities(t, 'search', { entity: 'dataset', input: name, start: 0, count: 5 })).entities).toEqual([urn]));
    const task = await action<string>(t, 'operations', 'rebuildIndices', {});
    expect(task).toMatch(/^[a-zA-Z0-9-_]+:[0-9]+$/);
    const status = await taskDone(task);
    expect(status.status).toMatchObject({ phase: 'done', total: expect.any(Number), restored: expect.any(Number) });
    expect(status.status.restored).toBe(status.status.total);
    await indexed(async () => {
      expect((await entities(t, 'search', { entity: 'dataset', input: `tags:${name}`, start: 0, count: 5 })).entities).toEqual([urn]);
      expect(await outgoing(urn)).toEqual([`urn:li:tag:${name}`]);
    });
  });

  it('rejects a negative start and a huge batch', async () => {
    expectRestliError(await call(t, 'POST', '/operations?action=restoreIndices', { start: -1 }), 400, /start/);
    expectRestliError(await call(t, 'POST', '/operations?action=restoreIndices', { batchSize: 10_000_000 }), 400, /batchSize/);
  });
});

describe('deleteReferences', () => {
  it('lists the aspects referring to a URN on a dry run, removes the references for real', async () => {
    const tag = `urn:li:tag:${unique('doomed')}`;
    const keep = `urn:li:tag:${unique('kept')}`;
    const urn = ds('hive', unique('refs'));
    await write(proposal(urn, 'globalTags', { tags: [{ tag }, { tag: keep }] }));
    const incoming = async () => (await call(t, 'GET', `/relationships?urn=${enc(tag)}&direction=INCOMING`)).body.entities as string[];
    await indexed(async () => expect(await incoming()).toEqual([urn]));
    const dry = await entities(t, 'deleteReferences', { urn: tag, dryRun: true });
    expect(dry).toEqual({ total: 1, relatedAspects: [{ entity: urn, aspect: 'globalTags', relationship: 'TaggedWith' }] });
    expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(globalTags)`)).body.aspects.globalTags.value.tags).toHaveLength(2);
    const done = await entities(t, 'deleteReferences', { urn: tag });
    expect(done.total).toBe(1);
    expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(globalTags)`)).body.aspects.globalTags.value.tags).toEqual([{ tag: keep }]);
    await indexed(async () => expect(await incoming()).toEqual([]));
  });
});
