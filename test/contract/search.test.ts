/**
 * Search, facets, autocomplete, browse and counts over the reference samples, through `/entities`
 * actions. Index reads trail writes, so every read of the index retries until it holds.
 */
import { action, ds, entities, eqFilter, indexed, loadSamples } from '../support/search';
import { call, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
  await loadSamples(t, ['bootstrap_mce.json', 'smoke_browse_data.json', 'smoke_tests_data.json']);
}, 120_000);
afterAll(() => t.close());

const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HDFS = ds('hdfs', 'SampleHdfsDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const BROWSE = [1, 2, 3].map((i) => ds('kafka', `test-browse-${i}`));

const search = (params: Record<string, unknown>) => entities(t, 'search', { entity: 'dataset', start: 0, count: 10, ...params });

describe('search', () => {
  it('finds the sample datasets by a word of their names, in the spec shape', async () => {
    const value = await indexed(async () => {
      const v = await search({ input: 'sample', count: 20 });
      expect(v.entities).toEqual(expect.arrayContaining([KAFKA, HDFS, HIVE]));
      return v;
    });
    expect(value.numEntities).toBeGreaterThanOrEqual(3);
    expect(value).toMatchObject({ from: 0, pageSize: 20 });
    expect(value.metadata.urns).toEqual(value.entities);
    expect(value.metadata.matches).toHaveLength(value.entities.length);
    expect(value.metadata.matches[0].matchedFields).toEqual(expect.arrayContaining([expect.objectContaining({ name: expect.any(String), value: expect.any(String) })]));
    expect(value.entities.every((u: string) => u.startsWith('urn:li:dataset:'))).toBe(true);
  });

  it('ranks exact name matches first', async () => {
    const value = await indexed(async () => {
      const v = await search({ input: 'SampleKafkaDataset' });
      expect(v.entities[0]).toBe(KAFKA);
      return v;
    });
    expect(value.numEntities).toBeGreaterThanOrEqual(1);
  });

  it('requires every term and matches quoted phrases', async () => {
    await indexed(async () => expect((await search({ input: 'sample kafka' })).entities).toContain(KAFKA));
    expect((await search({ input: 'sample kafka' })).entities).not.toContain(HIVE);
    expect((await search({ input: 'sample zzznothing' })).numEntities).toBe(0);
  });

  it('searches one field with field:value, URN fields by component', async () => {
    const legacy = await indexed(async () => {
      const v = await search({ input: 'tags:Legacy', count: 50 });
      expect(v.entities.length).toBeGreaterThan(0);
      return v;
    });
    const needsDocs = await search({ input: 'tags:NeedsDocumentation', count: 50 });
    expect(needsDocs.entities.length).toBeGreaterThan(0);
    expect((await search({ input: 'tags:Legac' })).numEntities).toBe(0);
    const owned = await search({ input: 'owners:jdoe', count: 50 });
    expect(owned.entities).toContain(KAFKA);
    expect(legacy.entities.every((u: string) => typeof u === 'string')).toBe(true);
  });

  it('matches everything with * and pages through it', async () => {
    const all = await indexed(async () => {
      const v = await search({ input: '*', count: 100 });
      expect(v.entities).toEqual(expect.arrayContaining([KAFKA, HDFS, HIVE, ...BROWSE]));
      return v;
    });
    expect([...all.entities].sort()).toEqual(all.entities);
    const second = await search({ input: '*', start: 2, count: 2 });
    expect(second.entities).toEqual(all.entities.slice(2, 4));
    expect(second.from).toBe(2);
  });

  it('filters on platform and origin, with negation and the legacy criteria form', async () => {
    const kafka = await indexed(async () => {
      const v = await search({ input: '*', count: 100, filter: eqFilter('platform', 'urn:li:dataPlatform:kafka') });
      expect(v.entities).toEqual(expect.arrayContaining([KAFKA, ...BROWSE]));
      return v;
    });
    expect(kafka.entities).not.toContain(HIVE);
    const keyword = await search({ input: '*', count: 100, filter: eqFilter('platform.keyword', 'urn:li:dataPlatform:kafka') });
    expect(keyword.entities).toEqual(kafka.entities);
    const prod = await search({ input: 'sample', count: 100, filter: { criteria: [{ field: 'origin', value: 'PROD', condition: 'EQUAL' }] } });
    expect(prod.entities).toEqual(expect.arrayContaining([KAFKA, HDFS, HIVE]));
    const notProd = await search({ input: 'sample', count: 100, filter: eqFilter('origin', 'PROD', { negated: true }) });
    expect(notProd.entities).not.toContain(KAFKA);
    const either = await search({
      input: '*',
      count: 100,
      filter: { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hdfs' }] }, { and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive', condition: 'EQUAL' }] }] },
    });
    expect(either.entities).toEqual(expect.arrayContaining([HDFS, HIVE]));
    expect(either.entities).not.toContain(KAFKA);
    const started = await search({ input: '*', count: 100, filter: eqFilter('id', 'test-browse', { condition: 'START_WITH' }) });
    expect(started.entities).toEqual(BROWSE);
  });

  it('counts facet values of all matches, with display names', async () => {
    const value = await indexed(async () => {
      const v = await search({ input: 'sample' });
      const platform = v.metadata.searchResultMetadatas.find((m: { name: string }) => m.name === 'platform');
      expect(platform.aggregations['urn:li:dataPlatform:kafka']).toBeGreaterThanOrEqual(1);
      return v;
    });
    const byName = Object.fromEntries(value.metadata.searchResultMetadatas.map((m: { name: string }) => [m.name, m]));
    expect(byName.origin).toMatchObject({ displayName: 'Environment', aggregations: { PROD: expect.any(Number) } });
    expect(byName.platform.displayName).toBe('Platform');
    expect(byName._entityType.aggregations).toEqual({ dataset: value.numEntities });
    expect(byName.platform.filterValues).toEqual(expect.arrayContaining([{ value: 'urn:li:dataPlatform:kafka', facetCount: byName.platform.aggregations['urn:li:dataPlatform:kafka'] }]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['tags', 'owners', 'glossaryTerms', 'platform', 'origin', '_entityType']));
  });

  it('searches across entity types and answers the filter and list actions', async () => {
    const across = await indexed(async () => {
      const v = await entities(t, 'searchAcrossEntities', { input: 'jdoe', start: 0, count: 50 });
      expect(v.entities).toContain('urn:li:corpuser:jdoe');
      return v;
    });
    expect(across.metadata.searchResultMetadatas.find((m: { name: string }) => m.name === '_entityType').aggregations.corpuser).toBeGreaterThanOrEqual(1);
    const only = await entities(t, 'searchAcrossEntities', { entities: ['corpuser'], input: 'jdoe', start: 0, count: 50 });
    expect(only.entities.every((u: string) => u.startsWith('urn:li:corpuser:'))).toBe(true);
    const filtered = await entities(t, 'filter', { entity: 'dataset', filter: eqFilter('platform', 'urn:li:dataPlatform:hdfs'), start: 0, count: 10 });
    expect(filtered.entities).toContain(HDFS);
    const list = await entities(t, 'list', { entity: 'dataset', start: 0, count: 5 });
    expect(list).toMatchObject({ start: 0, count: 5, total: expect.any(Number) });
    expect(list.entities).toHaveLength(5);
  });

  it('scrolls through every hit exactly once', async () => {
    const total = (await indexed(async () => {
      const v = await search({ input: '*' });
      expect(v.numEntities).toBeGreaterThan(10);
      return v;
    })).numEntities;
    const seen: string[] = [];
    let scrollId: string | undefined;
    do {
      const page = await entities(t, 'scrollAcrossEntities', { entities: ['dataset'], input: '*', count: 7, keepAlive: '1m', ...(scrollId ? { scrollId } : {}) });
      seen.push(...page.entities);
      scrollId = page.scrollId;
    } while (scrollId);
    expect(seen.length).toBeGreaterThanOrEqual(total);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('counts entities per type and lists URNs from the store', async () => {
    const n = await indexed(async () => {
      const v = await entities<number>(t, 'getTotalEntityCount', { entity: 'dataset' });
      expect(v).toBeGreaterThan(10);
      return v;
    });
    const batch = await entities(t, 'batchGetTotalEntityCount', { entities: ['dataset', 'corpuser'] });
    expect(batch.dataset).toBe(n);
    expect(batch.corpuser).toBeGreaterThan(0);
    const urns = await entities(t, 'listUrns', { entity: 'dataset', start: 0, count: 3 });
    expect(urns).toMatchObject({ start: 0, count: 3, total: expect.any(Number) });
    expect(urns.entities.every((u: string) => u.startsWith('urn:li:dataset:'))).toBe(true);
  });
});

describe('autocomplete', () => {
  it('suggests names starting with what was typed, best first', async () => {
    const value = await indexed(async () => {
      const v = await entities(t, 'autocomplete', { entity: 'dataset', query: 'SampleK', limit: 5 });
      expect(v.suggestions[0]).toBe('SampleKafkaDataset');
      return v;
    });
    expect(value.query).toBe('SampleK');
    expect(value.entities[0]).toEqual({ urn: KAFKA });
    const samp = await entities(t, 'autocomplete', { entity: 'dataset', query: 'samp', limit: 10 });
    expect(samp.suggestions).toEqual(expect.arrayContaining(['SampleKafkaDataset', 'SampleHdfsDataset', 'SampleHiveDataset']));
    const words = await entities(t, 'autocomplete', { entity: 'dataset', query: 'KafkaDat', limit: 10 });
    expect(words.suggestions).toContain('SampleKafkaDataset');
    const none = await entities(t, 'autocomplete', { entity: 'dataset', query: 'zzznothing', limit: 10 });
    expect(none.suggestions).toEqual([]);
    const user = await entities(t, 'autocomplete', { entity: 'corpuser', query: 'jdo', limit: 10 });
    expect(user.suggestions.length).toBeGreaterThan(0);
  });
});

describe('browse', () => {
  it('lists the groups below a path and the entities at it', async () => {
    const root = await indexed(async () => {
      const v = await entities(t, 'browse', { entity: 'dataset', path: '', start: 0, limit: 100 });
      expect(v.metadata.groups).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'prod' })]));
      return v;
    });
    expect(root.metadata.totalNumEntities).toBeGreaterThanOrEqual(5);
    const prod = await indexed(async () => {
      const v = await entities(t, 'browse', { entity: 'dataset', path: '/prod', start: 0, limit: 100 });
      expect(v.entities).toEqual([{ name: BROWSE[2], urn: BROWSE[2] }]);
      return v;
    });
    expect(prod.metadata.groups).toEqual(expect.arrayContaining([{ name: 'kafka1', count: 3 }, { name: 'kafka2', count: 2 }, expect.objectContaining({ name: 'kafka' })]));
    const kafka1 = await entities(t, 'browse', { entity: 'dataset', path: '/prod/kafka1', start: 0, limit: 10 });
    expect(kafka1).toMatchObject({ numEntities: 3, from: 0, pageSize: 10, metadata: { path: '/prod/kafka1', groups: [], totalNumEntities: 0 } });
    expect(kafka1.entities.map((e: { urn: string }) => e.urn)).toEqual(BROWSE);
    const leaf = await entities(t, 'browse', { entity: 'dataset', path: '/prod/kafka/SampleKafkaDataset/', start: 0, limit: 10 });
    expect(leaf.entities).toContainEqual({ name: KAFKA, urn: KAFKA });
  });

  it('pages groups first, then entities', async () => {
    await indexed(async () => expect((await entities(t, 'browse', { entity: 'dataset', path: '/prod', start: 0, limit: 100 })).entities).toHaveLength(1));
    const all = await entities(t, 'browse', { entity: 'dataset', path: '/prod', start: 0, limit: 100 });
    const groups = all.metadata.groups.length;
    const last = await entities(t, 'browse', { entity: 'dataset', path: '/prod', start: groups, limit: 1 });
    expect(last.metadata.groups).toEqual([]);
    expect(last.entities).toEqual(all.entities);
  });

  it('answers the browse paths of an entity', async () => {
    const paths = await indexed(async () => {
      const v = await entities<string[]>(t, 'getBrowsePaths', { urn: BROWSE[0] });
      expect(v.length).toBe(2);
      return v;
    });
    expect([...paths].sort()).toEqual(['/prod/kafka1', '/prod/kafka2']);
  });

  it('sees a new entity once it is indexed', async () => {
    const name = unique('fresh');
    const urn = ds('hive', name);
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'browsePaths', { paths: [`/${name}/x`] }))).status).toBe(200);
    await indexed(async () => expect((await entities(t, 'browse', { entity: 'dataset', path: `/${name}/x`, start: 0, limit: 10 })).entities).toEqual([{ name: urn, urn }]));
    await indexed(async () => expect((await action(t, 'entities', 'search', { entity: 'dataset', input: name, start: 0, count: 10 })).entities).toEqual([urn]));
  });
});
