/** The Elasticsearch-backed index ports, their indices created (or migrated) from the model first. */
import type { Registry } from '@cairn/core';
import { searchSchemaOf } from '@cairn/search';
import type { ElasticConnection } from './elastic-connection';
import { ElasticGraphIndex, graphIndexDefinition } from './elastic-graph-index';
import { ElasticSearchIndex } from './elastic-search-index';
import { ElasticSystemMetadataIndex, systemMetadataIndexDefinition } from './elastic-system-metadata-index';
import { ElasticTimeseriesIndex } from './elastic-timeseries-index';
import { EntityIndices } from './entity-indices';
import { TimeseriesIndices } from './timeseries-indices';

export interface ElasticIndexes {
  readonly search: ElasticSearchIndex;
  readonly graph: ElasticGraphIndex;
  readonly timeseries: ElasticTimeseriesIndex;
  readonly systemMetadata: ElasticSystemMetadataIndex;
}

export async function openElasticIndexes(conn: ElasticConnection, registry: Registry): Promise<ElasticIndexes> {
  const entities = new EntityIndices(conn, searchSchemaOf(registry).mappings());
  const timeseriesAspects = registry.entities().flatMap((e) => [...e.aspects.values()].filter((a) => a.kind === 'timeseries').map((a) => ({ entityType: e.name, aspect: a.name })));
  const timeseries = new TimeseriesIndices(conn, timeseriesAspects, (aspect) => registry.aspect(aspect)?.timeseriesFields ?? []);
  // One request first: the client checks it talks to Elasticsearch before the parallel ones go out.
  await conn.client.ping();
  await Promise.all([
    entities.ensureAll(),
    timeseries.ensureAll(),
    conn.ensureIndex(graphIndexDefinition(conn)),
    conn.ensureIndex(systemMetadataIndexDefinition(conn)),
  ]);
  return {
    search: new ElasticSearchIndex(conn, entities),
    graph: new ElasticGraphIndex(conn),
    timeseries: new ElasticTimeseriesIndex(conn, timeseries),
    systemMetadata: new ElasticSystemMetadataIndex(conn),
  };
}
