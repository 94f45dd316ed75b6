/**
 * The query half of the SearchIndex contract: queries planned by @cairn/search from the real model,
 * over documents built from its annotations. An adapter's test file calls
 * `describeSearchQueriesContract` with a factory that opens an empty index laid out for `mappings`.
 */
import { defaultRegistry } from '@cairn/core';
import { MAX_RESULT_WINDOW, type SearchIndex, type SearchMappings } from '@cairn/ports';
import { planAutocomplete, planBrowse, planSearch, planSelection, searchFieldsOf, searchSchemaOf } from '@cairn/search';

export interface OpenedQueryIndex {
  readonly index: SearchIndex;
  close(): Promise<void>;
}

const registry = defaultRegistry();
const schema = searchSchemaOf(registry);

const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;
const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const USERS = ds('hive', 'fct_users_created', 'DEV');
const LOGS = ds('hdfs', 'logging_events');
const JDOE = 'urn:li:corpuser:jdoe';

/** Sets one aspect on a document the way the search projector does: key fields come along. */
async function put(index: Pick<SearchIndex, 'upsertFields'>, urn: string, aspect: string, value: unknown): Promise<void> {
  const { urn: parsed, entity } = registry.parseEntityUrn(urn);
  const spec = entity.aspects.get(aspect);
  if (!spec) throw new Error(`no aspect ${aspect} on ${entity.name}`);
  const key = registry.keyFromUrn(parsed, entity);
  await index.upsertFields(entity.name, urn, { urn, ...searchFieldsOf(entity.keyAspect, key), ...searchFieldsOf(spec, value) });
}

async function seed(index: SearchIndex): Promise<void> {
  await put(index, KAFKA, 'datasetProperties', { description: 'Kafka topic of page views', customProperties: { team: 'web' } });
  await put(index, KAFKA, 'globalTags', { tags: [{ tag: 'urn:li:tag:Legacy' }] });
  await put(index, KAFKA, 'browsePaths', { paths: ['/prod/kafka/SampleKafkaDataset'] });
  await put(index, KAFKA, 'ownership', { owners: [{ owner: JDOE, type: 'DATAOWNER' }], lastModified: { time: 0, actor: JDOE } });
  await put(index, HIVE, 'browsePaths', { paths: ['/prod/hive/SampleHiveDataset'] });
  await put(index, HIVE, 'schemaMetadata', {
    schemaName: 'hive',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [{ fieldPath: 'user_id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } }, globalTags: { tags: [{ tag: 'urn:li:tag:Pii' }] } }],
  });
  await put(index, USERS, 'datasetProperties', { description: 'users created, a sample table', customProperties: {} });
  await put(index, USERS, 'browsePaths', { paths: ['/dev/hive'] });
  await put(index, LOGS, 'status', { removed: true });
  await put(index, LOGS, 'browsePaths', { paths: ['/prod/hdfs/logging_events'] });
  await put(index, JDOE, 'corpUserInfo', { active: true, displayName: 'John Doe', fullName: 'John Doe', email: 'jdoe@example.com' });
}

export function describeSearchQueriesContract(name: string, open: (mappings: SearchMappings) => Promise<OpenedQueryIndex>): void {
  describe(`SearchIndex queries contract: ${name}`, () => {
    let opened: OpenedQueryIndex;
    let index: SearchIndex;

    beforeAll(async () => {
      opened = await open(schema.mappings());
      index = opened.index;
      await seed(index);
    });
    afterAll(async () => {
      await opened.close();
    });

    const search = (input: string, extra: { filter?: unknown; sort?: unknown; entityTypes?: string[] } = {}, page = { from: 0, size: 10 }) =>
      index.search(planSearch(schema, { entityTypes: extra.entityTypes ?? ['dataset'], input, filter: extra.filter, sort: extra.sort }), page);
    const urns = async (input: string, extra: Parameters<typeof search>[1] = {}) => (await search(input, extra)).hits.map((h) => h.urn);
    const eq = (field: string, value: string, more: Record<string, unknown> = {}) => ({ or: [{ and: [{ field, value, ...more }] }] });

    it('finds words, word prefixes and parts of compound names, all terms required', async () => {
      expect((await urns('sample')).sort()).toEqual([HIVE, KAFKA, USERS].sort());
      expect(await urns('kafk')).toEqual([KAFKA]);
      expect(await urns('sample kafka')).toEqual([KAFKA]);
      expect(await urns('sample nothing')).toEqual([]);
      expect(await urns('"page views"')).toEqual([KAFKA]);
    });

    it('ranks whole-name prefix matches first, ties by URN', async () => {
      const hits = (await search('sample')).hits;
      expect(hits.map((h) => h.urn)).toEqual([HIVE, KAFKA, USERS]);
      expect(hits[0].score).toBeGreaterThan(hits[2].score);
      expect(hits[0].matchedFields.some((f) => f.name === 'id' && f.value === 'SampleHiveDataset')).toBe(true);
    });

    it('matches field:value exactly, URN fields by component, aliases included', async () => {
      expect(await urns('tags:Legacy')).toEqual([KAFKA]);
      expect(await urns('tags:Pii')).toEqual([HIVE]);
      expect(await urns('tags:Leg')).toEqual([]);
      expect(await urns('owners:jdoe')).toEqual([KAFKA]);
      // A whole value already in lower case, and one that is not.
      expect(await urns(`owners:${JDOE}`)).toEqual([KAFKA]);
      expect(await urns('tags:urn:li:tag:legacy')).toEqual([KAFKA]);
      expect(await urns(`urn:${KAFKA.slice(4)}`)).toEqual([KAFKA]);
    });

    it('matches everything with *, URN order, soft-deleted left out', async () => {
      const r = await search('*');
      expect(r.total).toBe(3);
      expect(r.hits.map((h) => h.urn)).toEqual([HIVE, KAFKA, USERS].sort());
      expect(await urns('logging')).toEqual([]);
    });

    it('keeps a document soft-deleted through later writes, and lists it again once restored', async () => {
      // LOGS was soft-deleted before its browse paths were written (the seed).
      await put(index, LOGS, 'browsePaths', { paths: ['/prod/hdfs/logging_events/v2'] });
      expect(await urns('logging')).toEqual([]);
      await put(index, LOGS, 'status', { removed: false });
      expect(await urns('logging')).toEqual([LOGS]);
      await put(index, LOGS, 'browsePaths', { paths: ['/prod/hdfs/logging_events'] });
      expect(await urns('logging')).toEqual([LOGS]);
      await put(index, LOGS, 'status', { removed: true });
      expect(await urns('logging')).toEqual([]);
    });

    it('filters with every condition, negation and alternatives', async () => {
      expect(await urns('*', { filter: eq('platform', 'urn:li:dataPlatform:kafka') })).toEqual([KAFKA]);
      expect(await urns('*', { filter: eq('platform.keyword', 'urn:li:dataPlatform:kafka') })).toEqual([KAFKA]);
      expect(await urns('*', { filter: eq('origin', 'DEV') })).toEqual([USERS]);
      expect((await urns('*', { filter: eq('origin', 'DEV', { negated: true }) })).sort()).toEqual([HIVE, KAFKA].sort());
      expect(await urns('*', { filter: { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka', 'urn:li:dataPlatform:nope'], condition: 'IN' }] }] } })).toEqual([KAFKA]);
      expect(await urns('*', { filter: eq('id', 'fct', { condition: 'START_WITH' }) })).toEqual([USERS]);
      expect(await urns('*', { filter: eq('id', 'Kafka', { condition: 'CONTAIN' }) })).toEqual([KAFKA]);
      expect(await urns('*', { filter: eq('id', 'created', { condition: 'END_WITH' }) })).toEqual([USERS]);
      expect(await urns('*', { filter: { or: [{ and: [{ field: 'tags', condition: 'EXISTS' }] }] } })).toEqual([KAFKA, HIVE].sort());
      expect(await urns('*', { filter: { or: [{ and: [{ field: 'owners', condition: 'IS_NULL' }] }] } })).toEqual([HIVE, USERS].sort());
      expect(await urns('*', { filter: { criteria: [{ field: 'origin', value: 'PROD' }, { field: 'tags', value: 'urn:li:tag:Legacy' }] } })).toEqual([KAFKA]);
      expect(await urns('*', { filter: { or: [{ and: [{ field: 'origin', value: 'DEV' }] }, { and: [{ field: 'tags', value: 'urn:li:tag:Legacy' }] }] } })).toEqual([KAFKA, USERS].sort());
      expect(await urns('*', { filter: eq('customProperties', 'team=web') })).toEqual([KAFKA]);
      expect(await urns('*', { filter: eq('_entityType', 'DATASET'), entityTypes: ['dataset', 'corpuser'] })).toHaveLength(3);
    });

    it('compares ranges as numbers', async () => {
      const index2 = index;
      await index2.upsertFields('dataset', USERS, { createdAt: 2000 });
      await index2.upsertFields('dataset', HIVE, { createdAt: 10000 });
      expect(await urns('*', { filter: eq('createdAt', '5000', { condition: 'GREATER_THAN' }) })).toEqual([HIVE]);
      expect(await urns('*', { filter: eq('createdAt', '2000', { condition: 'LESS_THAN_OR_EQUAL_TO' }) })).toEqual([USERS]);
      expect(await urns('*', { filter: eq('createdAt', '10000', { condition: 'GREATER_THAN_OR_EQUAL_TO' }) })).toEqual([HIVE]);
      expect((await urns('*', { filter: eq('createdAt', '2000', { condition: 'GREATER_THAN_OR_EQUAL_TO' }) })).sort()).toEqual([HIVE, USERS].sort());
      expect(await urns('*', { filter: eq('createdAt', '10000', { condition: 'LESS_THAN' }) })).toEqual([USERS]);
      expect(await urns('*', { filter: eq('createdAt', '2000', { condition: 'LESS_THAN' }) })).toEqual([]);
      // A negated range keeps documents without the field, as a negated term does.
      expect((await urns('*', { filter: eq('createdAt', '10000', { condition: 'LESS_THAN', negated: true }) })).sort()).toEqual([HIVE, KAFKA].sort());
      expect(await urns('*', { sort: { field: 'createdAt', order: 'DESCENDING' } })).toEqual([HIVE, USERS, KAFKA]);
    });

    it('lets soft-deleted documents through when the filter names removed', async () => {
      expect(await urns('*', { filter: eq('removed', 'true') })).toEqual([LOGS]);
      expect(await urns('logging', { filter: eq('removed', 'True') })).toEqual([LOGS]);
    });

    it('counts facet values of every match', async () => {
      const r = await search('sample');
      const facet = (f: string) => r.facets.find((x) => x.field === f);
      expect(facet('platform')?.values).toEqual([
        { value: 'urn:li:dataPlatform:hive', count: 2 },
        { value: 'urn:li:dataPlatform:kafka', count: 1 },
      ]);
      expect(facet('origin')).toMatchObject({ displayName: 'Environment', values: [{ value: 'PROD', count: 2 }, { value: 'DEV', count: 1 }] });
      expect(facet('_entityType')?.values).toEqual([{ value: 'dataset', count: 3 }]);
    });

    it('searches across entity types', async () => {
      const r = await search('john', { entityTypes: ['dataset', 'corpuser'] });
      expect(r.hits.map((h) => [h.urn, h.entityType])).toEqual([[JDOE, 'corpuser']]);
    });

    it('pages and scrolls through every hit once', async () => {
      const query = planSearch(schema, { entityTypes: ['dataset'], input: 'sample' });
      expect((await index.search(query, { from: 1, size: 1 })).hits.map((h) => h.urn)).toEqual([KAFKA]);
      const seen: string[] = [];
      let scrollId: string | undefined;
      do {
        const page = await index.scroll(query, { ...(scrollId ? { scrollId } : {}), keepAlive: '1m', size: 2 });
        expect(page.total).toBe(3);
        seen.push(...page.hits.map((h) => h.urn));
        scrollId = page.nextScrollId;
      } while (scrollId);
      expect(seen).toEqual([HIVE, KAFKA, USERS]);
      const all = planSearch(schema, { entityTypes: ['dataset'], input: '*' });
      const first = await index.scroll(all, { keepAlive: '1m', size: 2 });
      const second = await index.scroll(all, { scrollId: first.nextScrollId!, keepAlive: '1m', size: 2 });
      expect([...first.hits, ...second.hits].map((h) => h.urn)).toEqual([HIVE, KAFKA, USERS].sort());
      expect(second.nextScrollId).toBeUndefined();
    });

    it('autocompletes prefixes of autocomplete fields, best first', async () => {
      const ac = (query: string, field?: string) => index.autocomplete(planAutocomplete(schema, { entityTypes: ['dataset'], query, limit: 10, ...(field ? { field } : {}) }));
      expect((await ac('samp')).suggestions).toEqual(['SampleHiveDataset', 'SampleKafkaDataset']);
      expect((await ac('kafka')).suggestions).toEqual(['SampleKafkaDataset']);
      expect((await ac('fct_us')).suggestions).toEqual(['fct_users_created']);
      expect((await ac('logging')).suggestions).toEqual([]);
      expect((await ac('nothing')).suggestions).toEqual([]);
    });

    it('answers several autocompletes together, each as alone, in the order asked', async () => {
      const queries = [
        planAutocomplete(schema, { entityTypes: ['corpuser'], query: 'jd', limit: 10 }),
        planAutocomplete(schema, { entityTypes: ['dataset'], query: 'samp', limit: 10 }),
        planAutocomplete(schema, { entityTypes: ['chart'], query: 'samp', limit: 10 }),
      ];
      const together = await index.autocompleteEach(queries);
      expect(together.map((r) => r.suggestions)).toEqual([['jdoe'], ['SampleHiveDataset', 'SampleKafkaDataset'], []]);
      expect(together).toEqual(await Promise.all(queries.map((q) => index.autocomplete(q))));
    });

    it('browses groups below a path and entities at it', async () => {
      const browse = (path: string, from = 0, size = 10) => index.browse(planBrowse(schema, { entityType: 'dataset', path, from, size }));
      expect(await browse('')).toEqual({ groups: [{ name: 'prod', count: 2 }, { name: 'dev', count: 1 }], totalGroups: 2, entities: [], totalEntities: 0, totalBelow: 3 });
      expect(await browse('/prod')).toMatchObject({ groups: [{ name: 'hive', count: 1 }, { name: 'kafka', count: 1 }], totalBelow: 2 });
      expect(await browse('/prod/kafka/SampleKafkaDataset')).toEqual({ groups: [], totalGroups: 0, entities: [KAFKA], totalEntities: 1, totalBelow: 0 });
      expect(await browse('/dev/hive')).toMatchObject({ entities: [USERS], totalEntities: 1 });
      expect(await browse('/prod', 1, 1)).toMatchObject({ groups: [{ name: 'kafka', count: 1 }], entities: [] });
      expect(await index.browsePaths('dataset', KAFKA)).toEqual(['/prod/kafka/SampleKafkaDataset']);
      expect(await index.browsePaths('dataset', ds('x', 'none'))).toEqual([]);
    });

    it('counts documents per entity type, soft-deleted left out', async () => {
      expect(await index.countByType(planSelection(schema, { entityTypes: ['dataset', 'corpuser', 'chart'] }))).toEqual({ dataset: 3, corpuser: 1, chart: 0 });
    });

    it('sees only the latest values', async () => {
      await put(index, KAFKA, 'globalTags', { tags: [{ tag: 'urn:li:tag:Fresh' }] });
      expect(await urns('tags:Legacy')).toEqual([]);
      expect(await urns('tags:Fresh')).toEqual([KAFKA]);
      await put(index, KAFKA, 'globalTags', { tags: [{ tag: 'urn:li:tag:Legacy' }] });
    });

    it("filters, sorts and counts a schema's many field paths and descriptions by every condition", async () => {
      const field = (fieldPath: string, description?: string) => ({ fieldPath, nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } }, ...(description ? { description } : {}) });
      const schemaOf = (...fields: unknown[]) => ({ schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields });
      await put(index, HIVE, 'schemaMetadata', schemaOf(field('user_id', 'The user'), field('Address.Zip', 'Postal code'), field('42')));
      await put(index, USERS, 'schemaMetadata', schemaOf(field('user_name', 'Name of the user'), field('address.zip'), field('7')));
      const where = (condition: string, value?: string, more: Record<string, unknown> = {}) => ({ filter: eq('fieldPaths', value ?? '', { condition, ...more }) });
      expect(await urns('*', where('EQUAL', 'user_id'))).toEqual([HIVE]);
      expect(await urns('*', where('EQUAL', 'address.zip'))).toEqual([USERS]);
      expect(await urns('*', where('EQUAL', 'user'))).toEqual([]);
      expect(await urns('*', { filter: eq('fieldPaths.keyword', 'Address.Zip') })).toEqual([HIVE]);
      expect(await urns('*', { filter: { or: [{ and: [{ field: 'fieldPaths', values: ['user_name', 'nope'], condition: 'IN' }] }] } })).toEqual([USERS]);
      expect((await urns('*', where('START_WITH', 'user_'))).sort()).toEqual([HIVE, USERS].sort());
      expect(await urns('*', where('START_WITH', 'Addr'))).toEqual([HIVE]);
      expect(await urns('*', where('CONTAIN', 'ss.Z'))).toEqual([HIVE]);
      expect(await urns('*', where('END_WITH', '_name'))).toEqual([USERS]);
      expect((await urns('*', where('EXISTS'))).sort()).toEqual([HIVE, USERS].sort());
      expect(await urns('*', where('IS_NULL'))).toEqual([KAFKA]);
      expect((await urns('*', where('EQUAL', 'user_id', { negated: true }))).sort()).toEqual([KAFKA, USERS].sort());
      expect(await urns('*', { filter: eq('fieldDescriptions', 'Postal code') })).toEqual([HIVE]);
      expect(await urns('*', { filter: eq('fieldDescriptions', 'postal code') })).toEqual([]);
      // Words still find them, with a filter beside.
      expect(await urns('zip', where('START_WITH', 'user_n'))).toEqual([USERS]);
      expect(await urns('*', { sort: { field: 'fieldPaths', order: 'DESCENDING' } })).toEqual([USERS, HIVE, KAFKA]);
      const query = { ...planSearch(schema, { entityTypes: ['dataset'], input: '*' }), facets: [{ field: 'fieldPaths', size: 10 }] };
      const facets = await index.search(query, { from: 0, size: 0 });
      expect(facets.facets.find((f) => f.field === 'fieldPaths')?.values.slice(0, 2)).toEqual([
        { value: '42', count: 1 },
        { value: '7', count: 1 },
      ]);
      // A changed schema leaves only its new values.
      await put(index, HIVE, 'schemaMetadata', schemaOf(field('account_id')));
      expect(await urns('*', where('EQUAL', 'user_id'))).toEqual([]);
      expect(await urns('*', where('EQUAL', 'account_id'))).toEqual([HIVE]);
      expect(await urns('*', { filter: eq('fieldDescriptions', 'Postal code') })).toEqual([]);
    });
  });

  describe(`SearchIndex batch contract: ${name}`, () => {
    let opened: OpenedQueryIndex;
    let index: SearchIndex;

    beforeEach(async () => {
      opened = await open(schema.mappings());
      index = opened.index;
    });
    afterEach(async () => {
      await opened.close();
    });

    const tagged = async (tag: string) =>
      (await index.search(planSearch(schema, { entityTypes: ['dataset'], input: '*', filter: { or: [{ and: [{ field: 'tags', value: tag }] }] } }), { from: 0, size: 10 })).hits.map((h) => h.urn);
    const found = async (input: string) => (await index.search(planSearch(schema, { entityTypes: ['dataset'], input }), { from: 0, size: 10 })).hits.map((h) => h.urn);
    const tags = (...names: string[]) => ({ tags: names.map((n) => ({ tag: `urn:li:tag:${n}` })) });

    it('leaves exactly the last state of each value searchable when a batch removes and re-adds it', async () => {
      await put(index, KAFKA, 'globalTags', tags('Keep'));
      await put(index, HIVE, 'globalTags', tags('Keep'));
      const batch = index.batch?.();
      const writes = batch ?? index;
      // KAFKA's tag goes, comes back with the document deleted in between (its id may be reused),
      // HIVE's tag goes and stays gone, USERS gains one and loses it again.
      await put(writes, KAFKA, 'globalTags', tags('Gone'));
      await writes.deleteDocument('dataset', KAFKA);
      await put(writes, KAFKA, 'globalTags', tags('Keep'));
      await put(writes, HIVE, 'globalTags', tags('Other'));
      await put(writes, USERS, 'globalTags', tags('Gone'));
      await writes.deleteDocument('dataset', USERS);
      await put(writes, USERS, 'datasetProperties', { description: 'created again', customProperties: {} });
      await batch?.flush();
      expect(await tagged('urn:li:tag:Keep')).toEqual([KAFKA]);
      expect(await tagged('urn:li:tag:Other')).toEqual([HIVE]);
      expect(await tagged('urn:li:tag:Gone')).toEqual([]);
      expect(await found('again')).toEqual([USERS]);
    });

    it('finds a full rebuild\'s documents by every kind of query once rebuilt, writes during it included', async () => {
      await seed(index);
      await index.clearForRebuild();
      await seed(index);
      await put(index, HIVE, 'globalTags', tags('During'));
      await index.rebuilt();
      expect(await tagged('urn:li:tag:During')).toEqual([HIVE]);
      expect(await tagged('urn:li:tag:Legacy')).toEqual([KAFKA]);
      expect(await found('tags:Legacy')).toEqual([KAFKA]);
      expect(await found(`owners:${JDOE}`)).toEqual([KAFKA]);
      expect((await found('sample')).sort()).toEqual([HIVE, KAFKA, USERS].sort());
      const facets = (await index.search(planSearch(schema, { entityTypes: ['dataset'], input: '*' }), { from: 0, size: 0 })).facets;
      expect(facets.find((f) => f.field === 'platform')?.values).toEqual([{ value: 'urn:li:dataPlatform:hive', count: 2 }, { value: 'urn:li:dataPlatform:kafka', count: 1 }]);
    });
  });

  describe(`SearchIndex deep paging contract: ${name}`, () => {
    // More hits than a ranked page may reach; written in one batch where the engine has batches.
    const DEEP = MAX_RESULT_WINDOW + 50;
    const tagUrn = (i: number) => `urn:li:tag:deep_${String(i).padStart(5, '0')}`;
    const expected = Array.from({ length: DEEP }, (_, i) => tagUrn(i));
    let opened: OpenedQueryIndex;
    let index: SearchIndex;

    beforeAll(async () => {
      opened = await open(schema.mappings());
      index = opened.index;
      const tag = registry.entity('tag')!;
      const batch = index.batch?.();
      for (const urn of expected) {
        await (batch ?? index).upsertFields('tag', urn, { urn, ...searchFieldsOf(tag.keyAspect, registry.keyFromUrn(registry.parseEntityUrn(urn).urn, tag)) });
      }
      await batch?.flush();
    }, 120_000);
    afterAll(async () => {
      await opened.close();
    });

    const scrollAll = async (input: string, size: number) => {
      const query = planSearch(schema, { entityTypes: ['tag'], input });
      const seen: string[] = [];
      let scrollId: string | undefined;
      let pages = 0;
      do {
        const page = await index.scroll(query, { ...(scrollId ? { scrollId } : {}), keepAlive: '1m', size });
        expect(page.total).toBe(DEEP);
        expect(page.hits.length).toBeLessThanOrEqual(size);
        seen.push(...page.hits.map((h) => h.urn));
        scrollId = page.nextScrollId;
        expect(++pages).toBeLessThanOrEqual(Math.ceil(DEEP / size));
      } while (scrollId);
      return seen;
    };

    it(`scrolls through more than ${MAX_RESULT_WINDOW} hits, each exactly once`, async () => {
      const everything = await scrollAll('*', 1000);
      expect(everything).toHaveLength(DEEP);
      expect(everything).toEqual(expected);
      const ranked = await scrollAll('deep', 4000);
      expect(ranked).toHaveLength(DEEP);
      expect(new Set(ranked).size).toBe(DEEP);
      expect([...ranked].sort()).toEqual(expected);
    }, 60_000);

    it(`pages a ranked search up to from + size = ${MAX_RESULT_WINDOW} and refuses deeper pages`, async () => {
      const query = planSearch(schema, { entityTypes: ['tag'], input: '*' });
      const last = await index.search(query, { from: MAX_RESULT_WINDOW - 10, size: 10 });
      expect(last.total).toBe(DEEP);
      expect(last.hits.map((h) => h.urn)).toEqual(expected.slice(MAX_RESULT_WINDOW - 10, MAX_RESULT_WINDOW));
      await expect(index.search(query, { from: MAX_RESULT_WINDOW - 5, size: 10 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/scroll/) });
      await expect(index.search(query, { from: MAX_RESULT_WINDOW, size: 0 })).resolves.toMatchObject({ total: DEEP, hits: [] });
      await expect(index.search(planSearch(schema, { entityTypes: ['tag'], input: 'deep' }), { from: 0, size: MAX_RESULT_WINDOW + 1 })).rejects.toMatchObject({ status: 400 });
    });
  });
}
