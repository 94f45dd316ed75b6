/**
 * The index port contracts against the Elasticsearch adapters, on a real server, plus what the
 * contracts cannot see: generated mappings, index names, replays, bulk writes, index migration.
 * Each run uses indices under a prefix of its own and deletes them afterwards.
 */
import { defaultRegistry } from '@cairn/core';
import {
  elasticConnection,
  elasticSettingsFromEnv,
  ElasticSearchIndex,
  EntityIndices,
  openElasticIndexes,
  type ElasticConnection,
  type ElasticIndexes,
} from '@cairn/adapter-elastic';
import { describeWithElastic, deleteIndicesWithPrefix, ELASTICSEARCH_URL, scratchIndexPrefix } from './elastic-server';
import { describeGraphIndexContract } from './graph-index.contract';
import { describeSearchIndexContract } from './search-index.contract';
import { describeSearchQueriesContract } from './search-queries.contract';
import { describeTimeseriesIndexContract } from './timeseries-index.contract';

const prefix = scratchIndexPrefix();
const registry = defaultRegistry();

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

  describeTimeseriesIndexContract('Elasticsearch', async () => {
    const { timeseries } = await opening;
    await timeseries.clear();
    return { index: timeseries, close: async () => {} };
  });
});
