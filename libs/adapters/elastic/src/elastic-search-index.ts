/** SearchIndex on Elasticsearch: one document per entity in the entity type's index, keyed by URN. */
import { badRequest } from '@cairn/core';
import {
  MAX_RESULT_WINDOW,
  type AutocompleteQuery,
  type AutocompleteResult,
  type BrowseQuery,
  type BrowseResult,
  type DocumentSelection,
  type ScrollResult,
  type SearchFields,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
} from '@cairn/ports';
import { scalarValues } from '@cairn/search';
import { entityDocumentId } from './document-ids';
import type { ElasticConnection } from './elastic-connection';
import type { EntityIndices } from './entity-indices';
import { EntitySearch } from './entity-search';
import { SearchBulkBatch } from './search-write-batch';

export class ElasticSearchIndex implements SearchIndex {
  private readonly reader: EntitySearch;

  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: EntityIndices,
  ) {
    this.reader = new EntitySearch(conn, indices);
  }

  batch(): SearchBulkBatch {
    return new SearchBulkBatch(this.conn, this.indices);
  }

  async upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void> {
    const batch = this.batch();
    await batch.upsertFields(entityType, urn, fields);
    await batch.flush();
  }

  async deleteDocument(entityType: string, urn: string): Promise<void> {
    const batch = this.batch();
    await batch.deleteDocument(entityType, urn);
    await batch.flush();
  }

  async getDocument(entityType: string, urn: string): Promise<SearchFields | undefined> {
    const { body, statusCode } = await this.conn.client.get({ index: this.indices.name(entityType), id: entityDocumentId(urn) }, { ignore: [404] });
    return statusCode === 404 ? undefined : (body._source as SearchFields);
  }

  async clear(): Promise<void> {
    await this.conn.deleteByQuery(await this.indices.existing(), { match_all: {} });
  }

  clearForRebuild(): Promise<void> {
    return this.clear();
  }

  /** Nothing was deferred: Elasticsearch indexes each bulk request's documents whole. */
  async rebuilt(): Promise<void> {}

  async count(entityType?: string): Promise<number> {
    const index = entityType ? [this.indices.name(entityType)] : await this.indices.existing();
    if (!index.length) return 0;
    const { body } = await this.conn.client.count({ index, ignore_unavailable: true });
    return body.count;
  }

  /** Refuses pages past MAX_RESULT_WINDOW with a 400, not the server's result-window failure. */
  async search(query: SearchQuery, page: { from: number; size: number }): Promise<SearchResult> {
    if (page.from + page.size > MAX_RESULT_WINDOW) throw badRequest(`from + size must be at most ${MAX_RESULT_WINDOW} (got ${page.from + page.size}); page deeper with a scroll`);
    return this.reader.search(query, page);
  }

  /** `keepAlive` is not needed: scroll ids are positions in the sort order, not server-side contexts. */
  scroll(query: SearchQuery, page: { scrollId?: string; keepAlive: string; size: number }): Promise<ScrollResult> {
    return this.reader.scroll(query, page);
  }

  autocomplete(query: AutocompleteQuery): Promise<AutocompleteResult> {
    return this.reader.autocomplete(query);
  }

  /** Concurrent requests: each type's index is searched apart anyway. */
  autocompleteEach(queries: readonly AutocompleteQuery[]): Promise<AutocompleteResult[]> {
    return Promise.all(queries.map((q) => this.reader.autocomplete(q)));
  }

  browse(query: BrowseQuery): Promise<BrowseResult> {
    return this.reader.browse(query);
  }

  async browsePaths(entityType: string, urn: string): Promise<string[]> {
    const doc = await this.getDocument(entityType, urn);
    return doc ? scalarValues(doc.browsePaths) : [];
  }

  countByType(selection: DocumentSelection): Promise<Record<string, number>> {
    return this.reader.countByType(selection);
  }
}
