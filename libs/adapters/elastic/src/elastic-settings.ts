/** Connection settings of the Elasticsearch adapter, read from environment-like config. */

/**
 * When a write becomes visible to searches: `none` within the index refresh interval;
 * `wait_for` resolves each write only once it is visible (read-your-writes, slower).
 */
export type RefreshPolicy = 'none' | 'wait_for';

export interface ElasticSettings {
  /** Node URL; credentials may be part of it (`http://user:pass@host:9200`). */
  readonly url: string;
  /** Prepended to every index name as `<prefix>_`, so several deployments can share a cluster. */
  readonly indexPrefix: string;
  readonly shards: number;
  readonly replicas: number;
  readonly refreshPolicy: RefreshPolicy;
  /** How often indices make new writes searchable (an Elasticsearch time value, e.g. `1s`). */
  readonly refreshInterval: string;
}

export type ElasticEnv = Readonly<Record<string, string | undefined>>;

function int(env: ElasticEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function refreshPolicy(raw: string | undefined): RefreshPolicy {
  const value = raw || 'none';
  if (value !== 'none' && value !== 'wait_for') throw new Error(`ELASTICSEARCH_REFRESH_POLICY must be none or wait_for, got "${value}"`);
  return value;
}

/**
 * `ELASTICSEARCH_URL`, `ELASTICSEARCH_INDEX_PREFIX`, `ELASTICSEARCH_NUM_SHARDS_PER_INDEX`,
 * `ELASTICSEARCH_NUM_REPLICAS_PER_INDEX`, `ELASTICSEARCH_REFRESH_POLICY`, `ELASTICSEARCH_REFRESH_INTERVAL`.
 */
export function elasticSettingsFromEnv(env: ElasticEnv = process.env): ElasticSettings {
  return {
    url: env.ELASTICSEARCH_URL || 'http://127.0.0.1:9200',
    indexPrefix: env.ELASTICSEARCH_INDEX_PREFIX ?? '',
    shards: int(env, 'ELASTICSEARCH_NUM_SHARDS_PER_INDEX', 1),
    replicas: int(env, 'ELASTICSEARCH_NUM_REPLICAS_PER_INDEX', 0),
    refreshPolicy: refreshPolicy(env.ELASTICSEARCH_REFRESH_POLICY),
    refreshInterval: env.ELASTICSEARCH_REFRESH_INTERVAL || '1s',
  };
}
