/** Ownership and lineage relationships, profile values with filters, and usage statistics. */
import { action, ds, expectRestliError, indexed, loadSamples } from '../support/search';
import { call, enc, startTarget, type Target } from '../support/target';

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

  it('serves the reference graph client at /openapi/relationships/v1/, page after page', async () => {
    await indexed(async () => expect((await relationships(`urn=${enc(JDOE)}&direction=INCOMING&types=OwnedBy`)).total).toBeGreaterThan(2));
    const seen: string[] = [];
    let start = 0;
    for (;;) {
      const res = await call(t, 'GET', `/openapi/relationships/v1/?urn=${enc(JDOE)}&direction=INCOMING&relationshipTypes=OwnedBy&start=${start}&count=2`);
      expect(res.status).toBe(200);
      if (res.body.count === 0) break;
      expect(res.body.entities.every((e: { relationshipType: string }) => e.relationshipType === 'OwnedBy')).toBe(true);
      seen.push(...res.body.entities.map((e: { urn: string }) => e.urn));
      start += res.body.count;
    }
    expect(seen).toContain(KAFKA);
    expect(new Set(seen).size).toBe(seen.length);
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
