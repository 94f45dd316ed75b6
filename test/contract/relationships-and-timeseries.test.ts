/** Ownership and lineage relationships, profile values with filters, and usage statistics. */
import { action, ds, expectRestliError, indexed, loadSamples } from '../support/search';
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
  await loadSamples(t, ['bootstrap_mce.json', 'bigquery_usages_golden.json']);
}, 120_000);
afterAll(() => t.close());

const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HDFS = ds('hdfs', 'SampleHdfsDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const JDOE = 'urn:li:corpuser:jdoe';
// In bootstrap_mce.json: baz1's chartInfo.inputs in the plain form, baz2's in the union form; baz holds both.
const CHART1 = 'urn:li:chart:(looker,baz1)';
const CHART2 = 'urn:li:chart:(looker,baz2)';
const DASHBOARD = 'urn:li:dashboard:(looker,baz)';
const AUSTIN = ds('bigquery', 'harshal-playground-306419.test_schema.austin311_derived');

const relationships = async (query: string) => {
  const res = await call(t, 'GET', `/relationships?${query}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('relationships', () => {
  it('answers ownership both ways, in the spec and the reference shapes', async () => {
    const owned = await indexed(async () => {
      const v = await relationships(`urn=${enc(JDOE)}&direction=INCOMING&types=OwnedBy`);
      expect(v.entities).toContain(KAFKA);
      return v;
    });
    expect(owned.relationships).toContainEqual(expect.objectContaining({ type: 'OwnedBy', entity: KAFKA }));
    expect(owned).toMatchObject({ start: 0, count: owned.relationships.length, total: owned.relationships.length });
    const owners = await relationships(`urn=${enc(KAFKA)}&direction=OUTGOING&types=List(OwnedBy)`);
    expect(owners.entities).toEqual(expect.arrayContaining([JDOE, 'urn:li:corpuser:datahub']));
  });

  it('answers lineage edges', async () => {
    const upstream = await indexed(async () => {
      const v = await relationships(`urn=${enc(HDFS)}&direction=OUTGOING&types=DownstreamOf`);
      expect(v.entities).toEqual([KAFKA]);
      return v;
    });
    expect(upstream.relationships[0]).toMatchObject({ type: 'DownstreamOf', entity: KAFKA });
    const downstream = await relationships(`urn=${enc(KAFKA)}&direction=INCOMING&types=DownstreamOf`);
    expect(downstream.entities).toEqual([HDFS]);
  });

  /** The same edges through the reference's graph client route, as (urn, type) pairs. */
  const openapi = async (urn: string, direction: string, type: string) => {
    const res = await call(t, 'GET', `/openapi/relationships/v1/?urn=${enc(urn)}&direction=${direction}&relationshipTypes=${type}&start=0&count=100`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ start: 0, count: res.body.entities.length, total: res.body.entities.length });
    return res.body.entities as { urn: string; relationshipType: string }[];
  };

  it('answers Consumes edges from chart inputs, plain and union forms, both ways', async () => {
    const fromChart1 = await indexed(async () => {
      const v = await relationships(`urn=${enc(CHART1)}&direction=OUTGOING&types=Consumes`);
      expect(v.entities).toEqual([KAFKA]);
      return v;
    });
    expect(fromChart1.relationships).toEqual([expect.objectContaining({ type: 'Consumes', entity: KAFKA })]);
    await indexed(async () => expect((await relationships(`urn=${enc(CHART2)}&direction=OUTGOING&types=List(Consumes)`)).entities).toEqual([HDFS]));
    const intoKafka = await relationships(`urn=${enc(KAFKA)}&direction=INCOMING&types=Consumes`);
    expect(intoKafka.entities).toContain(CHART1);
    expect(intoKafka.entities).not.toContain(CHART2);
    expect(intoKafka.relationships).toContainEqual(expect.objectContaining({ type: 'Consumes', entity: CHART1 }));
    const intoHdfs = await relationships(`urn=${enc(HDFS)}&direction=INCOMING&types=Consumes`);
    expect(intoHdfs.entities).toContain(CHART2);
    expect(intoHdfs.entities).not.toContain(CHART1);

    expect(await openapi(CHART1, 'OUTGOING', 'Consumes')).toEqual([{ urn: KAFKA, relationshipType: 'Consumes' }]);
    expect(await openapi(CHART2, 'OUTGOING', 'Consumes')).toEqual([{ urn: HDFS, relationshipType: 'Consumes' }]);
    expect(await openapi(KAFKA, 'INCOMING', 'Consumes')).toContainEqual({ urn: CHART1, relationshipType: 'Consumes' });
    expect(await openapi(HDFS, 'INCOMING', 'Consumes')).toContainEqual({ urn: CHART2, relationshipType: 'Consumes' });
  });

  it('answers Contains edges from dashboard charts, both ways', async () => {
    const charts = await indexed(async () => {
      const v = await relationships(`urn=${enc(DASHBOARD)}&direction=OUTGOING&types=Contains`);
      expect([...v.entities].sort()).toEqual([CHART1, CHART2]);
      return v;
    });
    expect(charts.relationships.map((r: { type: string }) => r.type)).toEqual(['Contains', 'Contains']);
    expect(charts).toMatchObject({ start: 0, count: 2, total: 2 });
    for (const chart of [CHART1, CHART2]) {
      const into = await relationships(`urn=${enc(chart)}&direction=INCOMING&types=Contains`);
      expect(into.entities).toEqual([DASHBOARD]);
      expect(into.relationships).toEqual([expect.objectContaining({ type: 'Contains', entity: DASHBOARD })]);
      expect(await openapi(chart, 'INCOMING', 'Contains')).toEqual([{ urn: DASHBOARD, relationshipType: 'Contains' }]);
    }
    const viaOpenapi = await openapi(DASHBOARD, 'OUTGOING', 'Contains');
    expect(viaOpenapi.map((e) => e.urn).sort()).toEqual([CHART1, CHART2]);
    expect(viaOpenapi.every((e) => e.relationshipType === 'Contains')).toBe(true);
    // Both lineage types of a dashboard at once: its charts, and no datasets (baz lists none).
    const both = await relationships(`urn=${enc(DASHBOARD)}&direction=OUTGOING&types=List(Contains,Consumes)`);
    expect([...both.entities].sort()).toEqual([CHART1, CHART2]);
  });

  it('serves the reference graph client at /openapi/relationships/v1/, page after page', async () => {
    await indexed(async () => expect((await openapi(JDOE, 'INCOMING', 'OwnedBy')).map((e) => e.urn)).toContain(KAFKA));
    // An owner of this test's own: other suites on a shared deployment give jdoe entities meanwhile,
    // and a page's offset shifts under edges added between two pages.
    const owner = `urn:li:corpuser:${unique('pager')}`;
    const owned = [1, 2, 3, 4, 5].map((i) => ds('hive', `${unique('paged')}_${i}`));
    for (const urn of owned) {
      const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'ownership', { owners: [{ owner, type: 'DATAOWNER' }], lastModified: { time: 1, actor: owner } }));
      expect(res.status).toBe(200);
    }
    await indexed(async () => expect((await relationships(`urn=${enc(owner)}&direction=INCOMING&types=OwnedBy`)).total).toBe(owned.length));
    const seen: string[] = [];
    let start = 0;
    for (;;) {
      const res = await call(t, 'GET', `/openapi/relationships/v1/?urn=${enc(owner)}&direction=INCOMING&relationshipTypes=OwnedBy&start=${start}&count=2`);
      expect(res.status).toBe(200);
      if (res.body.count === 0) break;
      expect(res.body.entities.every((e: { relationshipType: string }) => e.relationshipType === 'OwnedBy')).toBe(true);
      seen.push(...res.body.entities.map((e: { urn: string }) => e.urn));
      start += res.body.count;
    }
    expect(seen.sort()).toEqual([...owned].sort());
    const both = await call(t, 'GET', `/openapi/relationships/v1?urn=${enc(KAFKA)}&direction=OUTGOING&relationshipTypes=OwnedBy&relationshipTypes=TaggedWith`);
    expect(both.body.entities.map((e: { relationshipType: string }) => e.relationshipType)).toContain('OwnedBy');
  });
});

describe('time-series values', () => {
  const values = (params: Record<string, unknown>) => action(t, 'aspects', 'getTimeseriesAspectValues', { urn: HIVE, entity: 'dataset', aspect: 'datasetProfile', ...params });

  it('answers profiles newest first, within a time range, with a filter, or the latest only', async () => {
    const all = await indexed(async () => {
      const v = await values({});
      expect(v.values).toHaveLength(2);
      return v;
    });
    const rows = all.values.map((x: { aspect: { value: string } }) => JSON.parse(x.aspect.value).rowCount);
    expect(rows).toEqual([3500, 4500]);
    expect(all).toMatchObject({ entityName: 'dataset', aspectName: 'datasetProfile', limit: 10000 });
    const since = await values({ startTimeMillis: 1680000000000 });
    expect(since.values).toHaveLength(1);
    const filtered = await values({ filter: { or: [{ and: [{ field: 'timestampMillis', value: '1680000000000', condition: 'LESS_THAN' }] }] } });
    expect(filtered.values.map((x: { aspect: { value: string } }) => JSON.parse(x.aspect.value).rowCount)).toEqual([4500]);
    const latest = await values({ latestValue: true });
    expect(JSON.parse(latest.values[0].aspect.value).rowCount).toBe(3500);
  });

  it('refuses a negative, zero or huge limit with a 400', async () => {
    for (const limit of [-1, 0, 10_001, 1_000_000_000_000, 'many']) {
      const res = await call(t, 'POST', '/aspects?action=getTimeseriesAspectValues', { urn: HIVE, entity: 'dataset', aspect: 'datasetProfile', limit });
      expectRestliError(res, 400, /limit|integer/);
    }
    expect((await values({ limit: 10_000 })).values).toHaveLength(2);
    expect((await values({ limit: 1 })).values).toHaveLength(1);
  });

  it('rejects a filter on a field time-series documents do not have', async () => {
    const res = await call(t, 'POST', '/aspects?action=getTimeseriesAspectValues', { urn: HIVE, entity: 'dataset', aspect: 'datasetProfile', filter: { criteria: [{ field: 'colour', value: 'red' }] } });
    expectRestliError(res, 400, /Unknown filter field 'colour'/);
  });
});

describe('usage statistics', () => {
  it('buckets the latest counts per day and sums users and fields', async () => {
    const usage = await indexed(async () => {
      const v = await action(t, 'usageStats', 'queryRange', { resource: AUSTIN, duration: 'DAY', rangeFromEnd: 'ALL' });
      expect(v.buckets).toHaveLength(3);
      return v;
    });
    expect(usage.buckets.map((b: { bucket: number }) => b.bucket)).toEqual([1622073600000, 1622505600000, 1623888000000]);
    expect(usage.buckets[2]).toEqual({
      bucket: 1623888000000,
      duration: 'DAY',
      resource: AUSTIN,
      metrics: { uniqueUserCount: 1, totalSqlQueries: 2, topSqlQueries: expect.arrayContaining([expect.stringContaining('select * from')]) },
    });
    expect(usage.aggregations).toMatchObject({ uniqueUserCount: 1, totalSqlQueries: 3, users: [{ user: 'urn:li:corpuser:harshal', count: 4, userEmail: 'harshal@acryl.io' }] });
    expect(usage.aggregations.fields.length).toBeGreaterThan(10);
    expect(usage.aggregations.fields[0].count).toBeGreaterThanOrEqual(usage.aggregations.fields[usage.aggregations.fields.length - 1].count);
  });

  it('narrows to a time window and groups by month', async () => {
    await indexed(async () => expect((await action(t, 'usageStats', 'query', { resource: AUSTIN, duration: 'DAY' })).buckets).toHaveLength(3));
    const june = await action(t, 'usageStats', 'query', { resource: AUSTIN, duration: 'MONTH', startTime: 1622505600000, endTime: 1625000000000 });
    expect(june.buckets).toEqual([expect.objectContaining({ bucket: Date.UTC(2021, 5, 1), duration: 'MONTH', metrics: expect.objectContaining({ totalSqlQueries: 2 }) })]);
    expect(june.aggregations.users).toEqual([{ user: 'urn:li:corpuser:harshal', count: 3, userEmail: 'harshal@acryl.io' }]);
  });

  it('rejects unknown durations, ranges and resources', async () => {
    expectRestliError(await call(t, 'POST', '/usageStats?action=query', { resource: AUSTIN, duration: 'FORTNIGHT' }), 400, /duration/);
    expectRestliError(await call(t, 'POST', '/usageStats?action=queryRange', { resource: AUSTIN, duration: 'DAY', rangeFromEnd: 'EON' }), 400, /rangeFromEnd/);
    expectRestliError(await call(t, 'POST', '/usageStats?action=query', { resource: 'not-a-urn', duration: 'DAY' }), 400, /resource/);
  });
});
