/**
 * Damage to a deployment's indexes that no API causes, for tests that restore them from the store:
 * an embedded target's own search index, or else the Elasticsearch of a distributed deployment as
 * its services are configured (`ELASTICSEARCH_URL`, `ELASTICSEARCH_INDEX_PREFIX`, as `.ci/run` exports them).
 */
import { elasticConnection, elasticSettingsFromEnv } from '@cairn/adapter-elastic';
import type { Target } from './target';

/** Removes an entity's search document, leaving the store (and its edges) as they are. */
export async function wipeSearchDocument(t: Target, entityType: string, urn: string): Promise<void> {
  if (t.searchIndex) return t.searchIndex.deleteDocument(entityType, urn);
  // The raw delete, not the adapter's writes, which would first check (and could migrate) the index.
  const conn = elasticConnection(elasticSettingsFromEnv(process.env));
  try {
    await conn.deleteByQuery([conn.names.entity(entityType)], { term: { urn } });
  } finally {
    await conn.close();
  }
}
