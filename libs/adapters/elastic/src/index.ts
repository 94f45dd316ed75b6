export { elasticSettingsFromEnv, type ElasticSettings, type ElasticEnv, type RefreshPolicy } from './elastic-settings';
export { ElasticConnection, elasticConnection } from './elastic-connection';
export { IndexNames } from './index-names';
export { openElasticIndexes, type ElasticIndexes } from './open-elastic-indexes';
export { ElasticSearchIndex } from './elastic-search-index';
export { EntityIndices } from './entity-indices';
export { ElasticGraphIndex } from './elastic-graph-index';
export { ElasticTimeseriesIndex } from './elastic-timeseries-index';
export { ElasticSystemMetadataIndex } from './elastic-system-metadata-index';
