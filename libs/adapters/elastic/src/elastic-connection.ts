/** The client and index conventions one process shares for every Elasticsearch-backed port. */
import { Client } from '@elastic/elasticsearch';
import { elasticSettingsFromEnv, type ElasticSettings } from './elastic-settings';
import { IndexNames, type IndexPattern } from './index-names';
import { ensureIndex, type IndexDefinition } from './versioned-index';

export class ElasticConnection {
  readonly client: Client;
  readonly names: IndexNames;
  /** Indices created or checked by this process, so each is set up once. */
  private readonly ensured = new Map<string, Promise<void>>();

  constructor(readonly settings: ElasticSettings) {
    this.client = new Client({ node: settings.url });
    this.names = new IndexNames(settings.indexPrefix);
  }

  /** Creates the index, or migrates it when its definition changed; once per process. */
  ensureIndex(def: IndexDefinition): Promise<void> {
    let ready = this.ensured.get(def.name);
    if (!ready) {
      ready = ensureIndex(this.client, def);
      this.ensured.set(def.name, ready);
      // A failed attempt is retried by the next caller.
      ready.catch(() => this.ensured.delete(def.name));
    }
    return ready;
  }

  /** The `refresh` parameter of index, update, delete and bulk requests. */
  get writeRefresh(): false | 'wait_for' {
    return this.settings.refreshPolicy === 'wait_for' ? 'wait_for' : false;
  }

  /** Aliases of this deployment's indices matching a wildcard, narrowed by their exact shape. */
  async indicesMatching({ wildcard, shape }: IndexPattern): Promise<string[]> {
    const { body, statusCode } = await this.client.indices.getAlias({ name: wildcard }, { ignore: [404] });
    if (statusCode === 404) return [];
    const aliases = Object.values(body as Record<string, { aliases: Record<string, unknown> }>).flatMap((i) => Object.keys(i.aliases));
    return [...new Set(aliases.filter((a) => shape.test(a)))].sort();
  }

  /** Makes every write so far visible to searches. */
  async refresh(indices: readonly string[]): Promise<void> {
    if (indices.length) await this.client.indices.refresh({ index: [...indices], ignore_unavailable: true });
  }

  /**
   * Deletes the matching documents, refreshing before (a delete by query only sees refreshed
   * documents, so recent writes would escape it) and after (callers read right after removing a
   * node, clearing, or deleting time-series values). These are rare, so refreshing is affordable.
   * Returns how many were deleted.
   */
  async deleteByQuery(indices: readonly string[], query: Record<string, unknown>): Promise<number> {
    if (!indices.length) return 0;
    await this.refresh(indices);
    const { body } = await this.client.deleteByQuery({ index: [...indices], conflicts: 'proceed', refresh: true, body: { query } });
    return body.deleted;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** A connection configured from `ELASTICSEARCH_*` environment-like config. */
export function elasticConnection(settings: ElasticSettings = elasticSettingsFromEnv()): ElasticConnection {
  return new ElasticConnection(settings);
}
