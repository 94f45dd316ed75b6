/** Response shapes of search, browse and autocomplete, as the spec gives them. */
import type { AutocompleteResult, BrowseResult, FacetResult, ScrollResult, SearchResult } from '@cairn/ports';

function searchResultMetadata(f: FacetResult) {
  return {
    name: f.field,
    ...(f.displayName ? { displayName: f.displayName } : {}),
    aggregations: Object.fromEntries(f.values.map((v) => [v.value, v.count])),
    filterValues: f.values.map((v) => ({ value: v.value, facetCount: v.count })),
  };
}

/** `{numEntities, pageSize, from, metadata: {urns, matches, searchResultMetadatas}, entities: [urn]}`. */
export function searchResponse(result: SearchResult, from: number, pageSize: number) {
  const urns = result.hits.map((h) => h.urn);
  return {
    numEntities: result.total,
    pageSize,
    from,
    metadata: {
      urns,
      matches: result.hits.map((h) => ({ matchedFields: h.matchedFields })),
      searchResultMetadatas: result.facets.map(searchResultMetadata),
    },
    entities: urns,
  };
}

export function scrollResponse(result: ScrollResult, pageSize: number) {
  const { from: _from, ...shape } = searchResponse(result, 0, pageSize);
  return { ...(result.nextScrollId ? { scrollId: result.nextScrollId } : {}), ...shape };
}

export function browseResponse(result: BrowseResult, path: string, from: number, pageSize: number) {
  return {
    numEntities: result.totalEntities,
    numGroups: result.totalGroups,
    numElements: result.totalGroups + result.totalEntities,
    pageSize,
    from,
    metadata: { path, groups: result.groups, totalNumEntities: result.totalBelow },
    entities: result.entities.map((urn) => ({ name: urn, urn })),
  };
}

export function autocompleteResponse(result: AutocompleteResult, query: string) {
  return { query, suggestions: result.suggestions, entities: result.urns.map((urn) => ({ urn })) };
}
