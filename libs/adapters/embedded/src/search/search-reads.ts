/** The queries of the embedded search engine, answered in this thread or by reader threads. */
import type { AutocompleteQuery, AutocompleteResult, BrowseQuery, BrowseResult, DocumentSelection, ScrollResult, SearchQuery, SearchResult } from '@cairn/ports';

export interface SearchReads {
  search(query: SearchQuery, from: number, size: number): SearchResult | Promise<SearchResult>;
  scroll(query: SearchQuery, scrollId: string | undefined, size: number): ScrollResult | Promise<ScrollResult>;
  autocomplete(query: AutocompleteQuery): AutocompleteResult | Promise<AutocompleteResult>;
  autocompleteEach(queries: readonly AutocompleteQuery[]): AutocompleteResult[] | Promise<AutocompleteResult[]>;
  browse(query: BrowseQuery): BrowseResult | Promise<BrowseResult>;
  countByType(selection: DocumentSelection): Record<string, number> | Promise<Record<string, number>>;
}

export type ReadMethod = keyof SearchReads;
