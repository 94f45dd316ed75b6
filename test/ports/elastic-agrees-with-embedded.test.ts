/**
 * The two search engines agree: the reference samples go through the embedded catalog, its
 * versioned change log is replayed into Elasticsearch, and the same planned queries run on both
 * (search hits, order, scores, facets and matched fields; browse; filters; autocomplete).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRegistry } from '@cairn/core';
import { elasticConnection, elasticSettingsFromEnv, openElasticIndexes, type ElasticConnection, type ElasticIndexes } from '@cairn/adapter-elastic';
import { openEmbeddedPorts, type CatalogPorts } from '@cairn/composition';
import { SearchProjector } from '@cairn/pipeline';
import type { SearchIndex } from '@cairn/ports';
import { planAutocomplete, planBrowse, planSearch, searchSchemaOf } from '@cairn/search';
import { configFromEnv } from '../../services/standalone/src/config';
import { startEmbeddedCatalog } from '../../services/standalone/src/embedded-catalog';
import { loadSamples } from '../support/search';
import { describeWithElastic, deleteIndicesWithPrefix, ELASTICSEARCH_URL, scratchIndexPrefix } from './elastic-server';

const registry = defaultRegistry();
const schema = searchSchemaOf(registry);
const prefix = scratchIndexPrefix();
const SAMPLES = ['bootstrap_mce.json', 'smoke_browse_data.json', 'smoke_tests_data.json', 'smoke_cypress_data.json', 'sample_bq_data.json'];

describeWithElastic('Elasticsearch and the embedded engine answer the same queries', () => {
  let dataDir: string;
  let ports: CatalogPorts;
  let conn: ElasticConnection;
  let es: ElasticIndexes;
  let sqlite: SearchIndex;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-engines-'));
    const catalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir }));
    await loadSamples({ baseUrl: `http://127.0.0.1:${catalog.port}`, authHeaders: {}, close: async () => {} }, SAMPLES);
    while ((await catalog.ports.logs.versionedChangeLog.lag('mae-consumer')) > 0) await new Promise((r) => setTimeout(r, 100));
    // The catalog's pipeline thread owns its files while it runs: its change log is replayed from them after.
    await catalog.close();
    ports = openEmbeddedPorts(dataDir, { durability: 'normal', searchThreads: 0 }, registry);
    const changeLog = ports.logs.versionedChangeLog;
    sqlite = ports.search;

    conn = elasticConnection({ ...elasticSettingsFromEnv({ ELASTICSEARCH_URL, ELASTICSEARCH_REFRESH_POLICY: 'wait_for' }), indexPrefix: prefix });
    es = await openElasticIndexes(conn, registry);
    const projector = new SearchProjector(registry, es.search, es.graph);
    const total = await changeLog.lag('replay-into-elasticsearch');
    let replayed = 0;
    const consumer = changeLog.consume('replay-into-elasticsearch', async (batch) => {
      await projector.handleBatch(batch);
      replayed += batch.length;
    });
    while (replayed < total) await new Promise((r) => setTimeout(r, 100));
    await consumer.stop();
  }, 300_000);

  afterAll(async () => {
    await ports?.close();
    await conn?.close();
    await deleteIndicesWithPrefix(prefix);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const ENTITY_TYPE_SETS = [['dataset'], ['chart', 'dashboard'], schema.entityTypes()];
  const INPUTS = ['*', 'sample', 'kafka', 'SampleKafka', 'samplekafkad', 'fct users', '"page views"', 'tags:Legacy', 'owners:jdoe', 'platform:hive', 'logging', 'jdoe', 'baz', 'cypress', 'customer', 'description:sample', 'v1', 'a'];

  it('holds the same documents', async () => {
    expect(await es.search.count()).toBe(await sqlite.count());
  });

  it('finds, orders, scores and facets alike', async () => {
    for (const entityTypes of ENTITY_TYPE_SETS) {
      for (const input of INPUTS) {
        const q = planSearch(schema, { entityTypes, input });
        const [a, b] = await Promise.all([sqlite.search(q, { from: 0, size: 20 }), es.search.search(q, { from: 0, size: 20 })]);
        const view = (r: typeof a) => ({
          input,
          total: r.total,
          hits: r.hits.map((h) => [h.urn, h.entityType, Math.round(h.score * 1000), h.matchedFields.map((f) => `${f.name}=${f.value}`).sort()]),
          facets: r.facets,
        });
        expect(view(b)).toEqual(view(a));
      }
    }
  });

  it('filters alike', async () => {
    const filters = [
      { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive' }] }] },
      { or: [{ and: [{ field: 'origin', value: 'PROD', negated: true }] }] },
      { or: [{ and: [{ field: 'tags', condition: 'EXISTS' }] }] },
      { or: [{ and: [{ field: 'description', value: 'a', condition: 'CONTAIN' }] }] },
      { or: [{ and: [{ field: 'removed', value: 'true' }] }] },
      { or: [{ and: [{ field: 'name', value: 'S', condition: 'START_WITH' }] }, { and: [{ field: 'id', value: 'Dataset', condition: 'END_WITH' }] }] },
    ];
    for (const filter of filters) {
      const q = planSearch(schema, { entityTypes: ['dataset'], input: '*', filter });
      const [a, b] = await Promise.all([sqlite.search(q, { from: 0, size: 100 }), es.search.search(q, { from: 0, size: 100 })]);
      expect({ filter, total: b.total, urns: b.hits.map((h) => h.urn) }).toEqual({ filter, total: a.total, urns: a.hits.map((h) => h.urn) });
    }
  });

  it('browses alike', async () => {
    for (const entityType of ['dataset', 'chart', 'dashboard', 'dataJob']) {
      for (const path of ['', '/prod', '/prod/hive', '/prod/kafka', '/dev', '/prod/bigquery']) {
        const q = planBrowse(schema, { entityType, path, from: 0, size: 10 });
        expect({ entityType, path, ...(await es.search.browse(q)) }).toEqual({ entityType, path, ...(await sqlite.browse(q)) });
      }
    }
  });

  it('autocompletes alike where the ranking has no ties', async () => {
    for (const query of ['sa', 'sample', 'kaf', 'hive', 'fct_', 'j', 'baz']) {
      const q = planAutocomplete(schema, { entityTypes: ['dataset'], query, limit: 10 });
      expect({ query, ...(await es.search.autocomplete(q)) }).toEqual({ query, ...(await sqlite.autocomplete(q)) });
    }
  });
});
