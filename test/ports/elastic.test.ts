/**
 * The index port contracts against the Elasticsearch adapters, on a real server, plus what the
 * contracts cannot see: generated mappings, index names, replays, bulk writes, index migration.
 * Each run uses indices under a prefix of its own and deletes them afterwards.
 */
import { defaultRegistry, type SearchFieldType } from '@cairn/core';
import {
  aliasOfPhysicalIndex,
  elasticConnection,
  elasticSettingsFromEnv,
  ElasticGraphIndex,
  ElasticSearchIndex,
  EntityIndices,
  IndexNames,
  openElasticIndexes,
  type ElasticConnection,
  type ElasticIndexes,
} from '@cairn/adapter-elastic';
import type { MetadataChangeLog } from '@cairn/events';
import { SearchProjector, TimeseriesProjector } from '@cairn/pipeline';
import type { LogRecord, TimeseriesDocument } from '@cairn/ports';
import { planSearch, searchSchemaOf } from '@cairn/search';
import { describeWithElastic, deleteIndicesWithPrefix, ELASTICSEARCH_URL, scratchIndexPrefix } from './elastic-server';
import { describeGraphIndexContract } from './graph-index.contract';
import { describeSearchIndexContract } from './search-index.contract';
import { describeSearchQueriesContract } from './search-queries.contract';
import { describeSystemMetadataIndexContract } from './system-metadata-index.contract';
import { describeTimeseriesIndexContract } from './timeseries-index.contract';

const prefix = scratchIndexPrefix();
const registry = defaultRegistry();
const schema = searchSchemaOf(registry);

/**
 * Read-your-writes, as the contracts expect of a port, with a short refresh interval so waiting
 * for visibility stays short; the defaults (`none`, `1s`) are tested on their own below.
 */
function connect(indexPrefix = prefix, env: Record<string, string> = { ELASTICSEARCH_REFRESH_POLICY: 'wait_for', ELASTICSEARCH_REFRESH_INTERVAL: '100ms' }): ElasticConnection {
  return elasticConnection({ ...elasticSettingsFromEnv({ ELASTICSEARCH_URL, ...env }), indexPrefix });
}

describeWithElastic('Elasticsearch adapters', () => {
  let conn: ElasticConnection;
  let opening: Promise<ElasticIndexes>;

  beforeAll(() => {
    conn = connect();
    opening = openElasticIndexes(conn, registry);
    return opening;
  }, 120_000);
  afterAll(async () => {
    await conn?.close();
    await deleteIndicesWithPrefix(prefix);
  });

  describeSearchIndexContract('Elasticsearch', async () => {
    const { search } = await opening;
    await search.clear();
    return { index: search, close: async () => {} };
  });

  describeSearchQueriesContract('Elasticsearch', async (mappings) => {
    await opening;
    const indices = new EntityIndices(conn, mappings);
    await indices.ensureAll();
    const index = new ElasticSearchIndex(conn, indices);
    await index.clear();
    return { index, close: async () => {} };
  });

  describeGraphIndexContract('Elasticsearch', async () => {
    const { graph } = await opening;
    await graph.clear();
    return { graph, close: async () => {} };
  });

  // The same contract with every count past the one-request bounds, so the keys are paged through.
  describeGraphIndexContract('Elasticsearch, edges counted page by page', async () => {
    const { graph } = await opening;
    await graph.clear();
    return { graph: new ElasticGraphIndex(conn, { shardKeys: 1, repeatedKeys: 1, keysPage: 3 }), close: async () => {} };
  });

  describeTimeseriesIndexContract('Elasticsearch', async () => {
    const { timeseries } = await opening;
    await timeseries.clear();
    return { index: timeseries, close: async () => {} };
  });

  describeSystemMetadataIndexContract('Elasticsearch', async () => {
    const { systemMetadata } = await opening;
    await systemMetadata.clear();
    return { index: systemMetadata, close: async () => {} };
  });

  describe('indices', () => {
    const mappingOf = async (index: string) => {
      const { body } = await conn.client.indices.getMapping({ index });
      return (Object.values(body)[0] as { mappings: { properties: Record<string, { type: string; fields?: Record<string, { type: string; index_prefixes?: unknown }> }> } }).mappings.properties;
    };

    it('are named as the reference names them, under the prefix', () => {
      const plain = new IndexNames('');
      expect([plain.entity('corpGroup'), plain.timeseries('dataset', 'datasetProfile'), plain.graph(), plain.systemMetadata()]).toEqual([
        'corpgroupindex_v2',
        'dataset_datasetprofileaspect_v1',
        'graph_service_v1',
        'system_metadata_service_v1',
      ]);
      const prefixed = new IndexNames('Team-A');
      expect([prefixed.entity('dataset'), prefixed.timeseries('dataset', 'operation'), prefixed.graph(), prefixed.systemMetadata()]).toEqual([
        'team-a_datasetindex_v2',
        'team-a_dataset_operationaspect_v1',
        'team-a_graph_service_v1',
        'team-a_system_metadata_service_v1',
      ]);
      expect(() => new IndexNames('bad prefix')).toThrow(/ELASTICSEARCH_INDEX_PREFIX/);
    });

    it('exist for every entity type and time-series aspect, each an alias of a versioned physical index', async () => {
      await opening;
      const { body } = await conn.client.indices.getAlias({ index: `${prefix}_*` });
      const aliasOf = new Map(Object.entries(body as Record<string, { aliases: Record<string, unknown> }>).flatMap(([physical, { aliases }]) => Object.keys(aliases).map((a) => [a, physical])));
      const expected = [
        ...registry.entities().map((e) => conn.names.entity(e.name)),
        ...registry.entities().flatMap((e) => [...e.aspects.values()].filter((a) => a.kind === 'timeseries').map((a) => conn.names.timeseries(e.name, a.name))),
        conn.names.graph(),
        conn.names.systemMetadata(),
      ];
      for (const alias of expected) {
        expect(aliasOf.get(alias)).toMatch(new RegExp(`^${alias}_[0-9a-f]{10}$`));
        expect(aliasOfPhysicalIndex(aliasOf.get(alias)!)).toBe(alias);
      }
    });

    it('map every index field of every entity type by its annotated type', async () => {
      await opening;
      const scalar: Partial<Record<SearchFieldType, string>> = { BOOLEAN: 'boolean', COUNT: 'long', DOUBLE: 'double', DATETIME: 'date' };
      for (const [entityType, fields] of schema.mappings()) {
        const properties = await mappingOf(conn.names.entity(entityType));
        for (const [field, { type, lookupTerms, prefixLookups }] of fields) {
          const mapping = properties[field];
          expect({ entityType, field, type: mapping?.type }).toEqual({ entityType, field, type: scalar[type] ?? 'keyword' });
          if (scalar[type]) continue;
          // Lower-cased whole values only where whole-value lookups read them; word prefixes only where prefix lookups do.
          expect({ entityType, field, lower: mapping.fields?.lower?.type }).toEqual({ entityType, field, lower: lookupTerms === false ? undefined : 'keyword' });
          const prefixes = mapping.fields?.words?.index_prefixes;
          if (mapping.fields?.words) expect({ entityType, field, prefixes: prefixes !== undefined }).toEqual({ entityType, field, prefixes: prefixLookups === true });
        }
      }
      const dataset = await mappingOf(conn.names.entity('dataset'));
      expect(Object.keys(dataset.tags.fields ?? {}).sort()).toEqual(['lower', 'parts', 'urn', 'words']);
      expect(Object.keys(dataset.name.fields ?? {}).sort()).toEqual(['lower', 'parts', 'words']);
      expect(dataset.name.fields?.parts?.index_prefixes).toEqual({ min_chars: 1, max_chars: 19 });
      expect(Object.keys(dataset.fieldPaths.fields ?? {}).sort()).toEqual(['parts', 'words']);
      expect(dataset.fieldPaths.fields?.words?.index_prefixes).toBeUndefined();
      expect(Object.keys(dataset.browsePaths.fields ?? {}).sort()).toEqual(['lower', 'path']);
      const profile = await mappingOf(conn.names.timeseries('dataset', 'datasetProfile'));
      expect(profile.event).toMatchObject({ properties: { rowCount: { type: 'long' }, partitionSpec: { properties: { partition: { type: 'keyword' } } } } });
    });

    it('migrate to a new version when a definition changes, keeping their documents', async () => {
      const scratch = `${prefix}_migrate`;
      const first = connect(scratch);
      const v1 = new EntityIndices(first, new Map([['dataset', new Map([['name', { type: 'TEXT' as const, autocomplete: false }]])]]));
      const index1 = new ElasticSearchIndex(first, v1);
      await v1.ensureAll();
      await index1.upsertFields('dataset', 'urn:li:dataset:(urn:li:dataPlatform:x,a,PROD)', { urn: 'urn:li:dataset:(urn:li:dataPlatform:x,a,PROD)', name: 'Alpha', owner: 'bob' });
      const physical = async () => Object.keys((await first.client.indices.getAlias({ name: first.names.entity('dataset') })).body);
      const [before] = await physical();

      // A later version of the model: a new field with its own analysis.
      const second = connect(scratch);
      const v2 = new EntityIndices(second, new Map([['dataset', new Map([['name', { type: 'TEXT' as const, autocomplete: false }], ['owner', { type: 'URN' as const, autocomplete: true }]])]]));
      await v2.ensureAll();
      const [after, ...others] = await physical();
      expect(others).toEqual([]);
      expect(after).not.toBe(before);
      expect((await first.client.indices.exists({ index: before })).body).toBe(false);
      const index2 = new ElasticSearchIndex(second, v2);
      expect(await index2.getDocument('dataset', 'urn:li:dataset:(urn:li:dataPlatform:x,a,PROD)')).toEqual({ urn: 'urn:li:dataset:(urn:li:dataPlatform:x,a,PROD)', name: 'Alpha', owner: 'bob' });
      expect(await index2.count('dataset')).toBe(1);

      // Starting again with the same definition changes nothing.
      await new EntityIndices(connect(scratch), v2.mappings).ensureAll();
      expect(await physical()).toEqual([after]);
      await Promise.all([first.close(), second.close()]);
    });
  });

  describe('writes', () => {
    const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,writes.table,PROD)';
    const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,writes.other,PROD)';
    let indexes: ElasticIndexes;

    beforeEach(async () => {
      indexes = await opening;
      await Promise.all([indexes.search.clear(), indexes.graph.clear(), indexes.timeseries.clear(), indexes.systemMetadata.clear()]);
    });

    const versionOf = async (urn: string) => (await conn.client.get({ index: conn.names.entity('dataset'), id: urn })).body._version as number;

    it('replayed upserts leave documents as they are', async () => {
      const fields = { urn: DS, name: 'table', tags: ['urn:li:tag:a'], description: null };
      await indexes.search.upsertFields('dataset', DS, fields);
      const version = await versionOf(DS);
      await indexes.search.upsertFields('dataset', DS, fields);
      await indexes.search.upsertFields('dataset', DS, { tags: ['urn:li:tag:a'] });
      expect(await versionOf(DS)).toBe(version);
      await indexes.search.upsertFields('dataset', DS, { tags: ['urn:li:tag:b'] });
      expect(await versionOf(DS)).toBe(version + 1);
    });

    it('replayed edges and time-series values converge to one document each', async () => {
      const edges = [{ source: DS, destination: DS2, relationshipType: 'DownstreamOf' }];
      for (let i = 0; i < 3; i++) await indexes.graph.replaceEdges(DS, 'upstreamLineage', edges);
      const { body } = await conn.client.count({ index: conn.names.graph(), body: { query: { exists: { field: 'relationshipType' } } } });
      expect(body.count).toBe(1);
      const doc: TimeseriesDocument = { entityType: 'dataset', aspect: 'datasetProfile', urn: DS, timestampMillis: 5, event: '{"timestampMillis":5,"rowCount":1}' };
      for (let i = 0; i < 3; i++) await indexes.timeseries.upsert(doc);
      expect(await indexes.timeseries.query({ entityType: 'dataset', aspect: 'datasetProfile', urn: DS, limit: 10 })).toEqual([doc]);
    });

    it('fails a batch whose operation Elasticsearch refuses, naming it, and keeps the operations it applied', async () => {
      const batch = indexes.search.batch();
      await batch.upsertFields('dataset', DS, { urn: DS, name: 'accepted' });
      await batch.upsertFields('dataset', DS2, { urn: DS2, createdAt: 'not a date' });
      await expect(batch.flush()).rejects.toThrow(new RegExp(`failed for 1 of 2 operations: ${DS2.replace(/[()]/g, '\\$&')}: mapper_parsing_exception`));
      expect(await indexes.search.getDocument('dataset', DS)).toEqual({ urn: DS, name: 'accepted' });
      expect(await indexes.search.getDocument('dataset', DS2)).toBeUndefined();
    });

    it('keeps documents of URNs longer than an Elasticsearch id may be', async () => {
      const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(600)},PROD)`;
      await indexes.search.upsertFields('dataset', long, { urn: long, name: 'long one' });
      expect(await indexes.search.getDocument('dataset', long)).toEqual({ urn: long, name: 'long one' });
      const hits = await indexes.search.search(planSearch(schema, { entityTypes: ['dataset'], input: 'long' }), { from: 0, size: 10 });
      expect(hits.hits.map((h) => h.urn)).toEqual([long]);
    });

    it('matches a word prefix of a field that indexes no prefixes however many words start with it', async () => {
      // Ten thousand and one words start with `wq` before the other document's one: a prefix
      // expanded through the terms dictionary up to a bound would miss it.
      const many = Array.from({ length: 10_001 }, (_, i) => `wqa${i.toString(36)}`).join(' ');
      await indexes.search.upsertFields('dataset', DS, { urn: DS, fieldDescriptions: [many] });
      await indexes.search.upsertFields('dataset', DS2, { urn: DS2, fieldDescriptions: ['the wqzz column'] });
      const found = async (input: string) => (await indexes.search.search(planSearch(schema, { entityTypes: ['dataset'], input }), { from: 0, size: 10 })).hits.map((h) => h.urn).sort();
      expect(await found('wq')).toEqual([DS, DS2].sort());
      expect(await found('wqz')).toEqual([DS2]);
      expect(await found('WQZZ')).toEqual([DS2]);
      expect(await found('wqa0')).toEqual([DS]);
    });

    it('sorts across entity types by a field only some of them have', async () => {
      await indexes.search.upsertFields('dataset', DS, { urn: DS, createdAt: 5 });
      await indexes.search.upsertFields('dataset', DS2, { urn: DS2, createdAt: 9 });
      await indexes.search.upsertFields('corpuser', 'urn:li:corpuser:u', { urn: 'urn:li:corpuser:u' });
      const query = planSearch(schema, { entityTypes: ['corpuser', 'dataset'], input: '*', sort: { field: 'createdAt', order: 'DESCENDING' } });
      const { hits } = await indexes.search.search(query, { from: 0, size: 10 });
      expect(hits.map((h) => h.urn)).toEqual([DS2, DS, 'urn:li:corpuser:u']);
    });

    it('sends a batch of writes on flush, applying them in order', async () => {
      const batch = indexes.search.batch();
      await batch.upsertFields('dataset', DS, { urn: DS, name: 'first', description: 'gone soon' });
      await batch.deleteDocument('dataset', DS);
      await batch.upsertFields('dataset', DS, { urn: DS, name: 'second' });
      await batch.upsertFields('dataset', DS, { description: 'kept' });
      await batch.upsertFields('corpuser', 'urn:li:corpuser:u', { urn: 'urn:li:corpuser:u' });
      expect(await indexes.search.getDocument('dataset', DS)).toBeUndefined();
      await batch.flush();
      expect(await indexes.search.getDocument('dataset', DS)).toEqual({ urn: DS, name: 'second', description: 'kept' });
      expect(await indexes.search.count()).toBe(2);

      const graph = indexes.graph.batch();
      await graph.replaceEdges(DS, 'ownership', [{ source: DS, destination: 'urn:li:corpuser:a', relationshipType: 'OwnedBy' }]);
      await graph.replaceEdges(DS2, 'upstreamLineage', [{ source: DS2, destination: DS, relationshipType: 'DownstreamOf' }]);
      await graph.removeNode(DS);
      await graph.replaceEdges(DS, 'ownership', [{ source: DS, destination: 'urn:li:corpuser:b', relationshipType: 'OwnedBy' }]);
      await graph.flush();
      const out = await indexes.graph.edges({ urn: DS, direction: 'OUTGOING', start: 0, count: 10 });
      expect(out.edges.map((e) => e.destination)).toEqual(['urn:li:corpuser:b']);
      expect((await indexes.graph.edges({ urn: DS, direction: 'INCOMING', start: 0, count: 10 })).total).toBe(0);
    });

    it('merges a document\'s upserts in a batch into one update, later fields winning, up to its next delete', async () => {
      // A URN no earlier case wrote: a deleted document's version outlives it for a while.
      const DS = `urn:li:dataset:(urn:li:dataPlatform:hive,merged.${Date.now()},PROD)`;
      const batch = indexes.search.batch();
      await batch.upsertFields('dataset', DS, { urn: DS, name: 'first', description: 'dropped' });
      await batch.upsertFields('dataset', DS, { name: 'second', tags: ['urn:li:tag:a'] });
      await batch.upsertFields('dataset', DS, { description: null });
      await batch.flush();
      expect(await indexes.search.getDocument('dataset', DS)).toEqual({ urn: DS, name: 'second', tags: ['urn:li:tag:a'] });
      expect(await versionOf(DS)).toBe(1);

      await batch.upsertFields('dataset', DS, { description: 'before the delete' });
      await batch.deleteDocument('dataset', DS);
      await batch.upsertFields('dataset', DS, { urn: DS, name: 'third' });
      await batch.upsertFields('dataset', DS, { tags: ['urn:li:tag:b'] });
      await batch.flush();
      expect(await indexes.search.getDocument('dataset', DS)).toEqual({ urn: DS, name: 'third', tags: ['urn:li:tag:b'] });
    });

    it('splits large batches into several bulk requests', async () => {
      const batch = indexes.timeseries.batch();
      for (let t = 1; t <= 2500; t++) await batch.upsert({ entityType: 'dataset', aspect: 'operation', urn: DS, timestampMillis: t, event: `{"timestampMillis":${t}}` });
      await batch.flush();
      expect(await indexes.timeseries.countOlderThan('dataset', 'operation', 1_000_000)).toEqual({ matching: 2500, total: 2500 });
    });

    it('projects a change-log batch through the batches', async () => {
      const mcl = (aspectName: string, value: unknown | null): LogRecord<MetadataChangeLog> => ({
        id: `0:${aspectName}`,
        key: DS,
        timestamp: 0,
        headers: {},
        value: {
          entityType: 'dataset',
          entityUrn: DS,
          changeType: value === null ? 'DELETE' : 'UPSERT',
          aspectName,
          ...(value === null ? {} : { aspect: { value: JSON.stringify(value), contentType: 'application/json' } }),
          systemMetadata: { runId: 'projected-run', lastObserved: 1 },
        },
      });
      const projector = new SearchProjector(registry, indexes.search, indexes.graph, indexes.systemMetadata);
      const runAspects = async () => (await indexes.systemMetadata.aspectsOfRun('projected-run', { start: 0, count: 10 })).aspects.map((a) => a.aspect);
      await projector.handleBatch([
        mcl('datasetProperties', { description: 'projected', customProperties: {} }),
        mcl('ownership', { owners: [{ owner: 'urn:li:corpuser:p', type: 'DATAOWNER' }], lastModified: { time: 0, actor: 'urn:li:corpuser:p' } }),
      ]);
      expect(await indexes.search.getDocument('dataset', DS)).toMatchObject({ urn: DS, description: 'projected', owners: ['urn:li:corpuser:p'] });
      expect((await indexes.graph.edges({ urn: 'urn:li:corpuser:p', direction: 'INCOMING', start: 0, count: 10 })).total).toBe(1);
      expect(await runAspects()).toEqual(['datasetProperties', 'ownership']);
      await projector.handleBatch([mcl('ownership', null)]);
      expect(await runAspects()).toEqual(['datasetProperties']);
      expect((await indexes.graph.edges({ urn: 'urn:li:corpuser:p', direction: 'INCOMING', start: 0, count: 10 })).total).toBe(0);
      await projector.handleBatch([mcl('ownership', { owners: [{ owner: 'urn:li:corpuser:p', type: 'DATAOWNER' }], lastModified: { time: 0, actor: 'urn:li:corpuser:p' } }), mcl('datasetKey', null)]);
      expect(await indexes.search.getDocument('dataset', DS)).toBeUndefined();
      expect(await runAspects()).toEqual([]);
      expect((await indexes.graph.edges({ urn: 'urn:li:corpuser:p', direction: 'INCOMING', start: 0, count: 10 })).total).toBe(0);
      await new TimeseriesProjector(registry, indexes.timeseries).handleBatch([mcl('datasetProfile', { timestampMillis: 7, rowCount: 3 })]);
      expect((await indexes.timeseries.query({ entityType: 'dataset', aspect: 'datasetProfile', limit: 5 })).map((d) => d.event)).toEqual(['{"timestampMillis":7,"rowCount":3}']);
    });

    it('by default become searchable within about a second, without a refresh per write', async () => {
      const relaxed = connect(prefix, {});
      expect(relaxed.settings).toMatchObject({ refreshPolicy: 'none', refreshInterval: '1s' });
      const search = (await openElasticIndexes(relaxed, registry)).search;
      await search.upsertFields('dataset', DS, { urn: DS });
      const started = Date.now();
      while ((await search.count('dataset')) === 0) {
        expect(Date.now() - started).toBeLessThan(3000);
        await new Promise((r) => setTimeout(r, 50));
      }
      await relaxed.close();
    });
  });

  describe('time-series operations', () => {
    const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,usage.table,PROD)';
    const DAY = 86_400_000;
    let indexes: ElasticIndexes;

    beforeAll(async () => {
      indexes = await opening;
    });
    beforeEach(() => indexes.timeseries.clear());

    const usage = (timestampMillis: number, partition: string, userCounts: { user: string; count: number }[]): TimeseriesDocument => ({
      entityType: 'dataset',
      aspect: 'datasetUsageStatistics',
      urn: DS,
      timestampMillis,
      event: JSON.stringify({ timestampMillis, partitionSpec: { partition }, uniqueUserCount: userCounts.length, userCounts }),
    });

    it('filters on time-series fields and aggregates by day and by array element', async () => {
      await indexes.timeseries.upsert(usage(DAY + 5, 'p1', [{ user: 'urn:li:corpuser:a', count: 2 }, { user: 'urn:li:corpuser:b', count: 1 }]));
      await indexes.timeseries.upsert(usage(DAY + 9, 'p2', [{ user: 'urn:li:corpuser:a', count: 4 }]));
      await indexes.timeseries.upsert(usage(3 * DAY, 'p1', [{ user: 'urn:li:corpuser:b', count: 7 }]));
      const byPartition = await indexes.timeseries.query({
        entityType: 'dataset',
        aspect: 'datasetUsageStatistics',
        filter: [[{ fields: ['partitionSpec.partition'], condition: 'EQUAL', values: ['p1'], negated: false }]],
        limit: 10,
      });
      expect(byPartition.map((d) => d.timestampMillis)).toEqual([3 * DAY, DAY + 5]);
      const table = await indexes.timeseries.aggregate({
        entityType: 'dataset',
        aspect: 'datasetUsageStatistics',
        filter: [[{ fields: ['urn'], condition: 'EQUAL', values: [DS], negated: false }]],
        buckets: [
          { kind: 'date', field: 'timestampMillis', unit: 'DAY', multiple: 1 },
          { kind: 'string', field: 'userCounts.user' },
        ],
        metrics: [
          { type: 'SUM', field: 'userCounts.count' },
          { type: 'LATEST', field: 'uniqueUserCount' },
        ],
      });
      expect(table.columnNames).toEqual(['timestampMillis', 'userCounts.user', 'sum_userCounts.count', 'latest_uniqueUserCount']);
      expect(table.rows).toEqual([
        [String(DAY), 'urn:li:corpuser:a', '6', '1'],
        [String(DAY), 'urn:li:corpuser:b', '1', '2'],
        [String(3 * DAY), 'urn:li:corpuser:b', '7', '1'],
      ]);
    });

    it('truncates as a server-side task whose id and status are the search engine’s own', async () => {
      for (let t = 1; t <= 5; t++) await indexes.timeseries.upsert(usage(t * DAY, 'p', []));
      expect(await indexes.timeseries.countOlderThan('dataset', 'datasetUsageStatistics', 3 * DAY)).toEqual({ matching: 2, total: 5 });
      const taskId = await indexes.timeseries.startDeleteOlderThan('dataset', 'datasetUsageStatistics', 3 * DAY, { batchSize: 1 });
      expect(taskId).toMatch(/^[a-zA-Z0-9-_]+:[0-9]+$/);
      let task = await indexes.timeseries.task(taskId);
      while (!task?.completed) {
        await new Promise((r) => setTimeout(r, 100));
        task = await indexes.timeseries.task(taskId);
      }
      expect(task).toMatchObject({ taskId, completed: true, status: { deleted: 2, total: 2 } });
      expect(task.runTimeNanos).toBeGreaterThan(0);
      expect(await indexes.timeseries.task(`${taskId.split(':')[0]}:999999999`)).toBeUndefined();
      const sizes = await indexes.timeseries.sizes();
      expect(sizes).toContainEqual({ indexName: conn.names.timeseries('dataset', 'datasetUsageStatistics'), entityName: 'dataset', aspectName: 'datasetUsageStatistics', sizeMb: expect.any(Number) });
    });
  });
});
