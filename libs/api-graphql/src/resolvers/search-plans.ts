/** GraphQL search inputs → the search library's requests; its 400s become GraphQL input errors. */
import { planSearch, planSelection, searchSchemaOf, type SearchRequest } from '@cairn/search';
import type { SearchQuery, SearchResult as IndexResult } from '@cairn/ports';
import type { GraphqlContext } from '../context';
import { fromPipelineError } from '../errors';
import { refOf } from '../refs';

export interface FacetFilter {
  field: string;
  value?: string | null;
  values?: string[] | null;
  negated?: boolean | null;
  condition?: string | null;
}

export interface FilterInputs {
  filters?: FacetFilter[] | null;
  orFilters?: { and?: FacetFilter[] | null }[] | null;
}

export interface SearchFlags {
  maxAggValues?: number | null;
  skipAggregates?: boolean | null;
}

/** `orFilters` as given, or the deprecated `filters` as one conjunction. */
export function filterOf(input: FilterInputs): unknown {
  if (input.orFilters && input.orFilters.length > 0) return { or: input.orFilters.map((c) => ({ and: c.and ?? [] })) };
  if (input.filters && input.filters.length > 0) return { or: [{ and: input.filters }] };
  return undefined;
}

export function catchPlanning<T>(plan: () => T): T {
  try {
    return plan();
  } catch (err) {
    throw fromPipelineError(err);
  }
}

export function searchQueryOf(ctx: GraphqlContext, req: SearchRequest, flags: SearchFlags | null | undefined): SearchQuery {
  const query = catchPlanning(() => planSearch(searchSchemaOf(ctx.catalog.registry), req));
  if (flags?.skipAggregates) return { ...query, facets: [] };
  const size = flags?.maxAggValues;
  return size && size > 0 ? { ...query, facets: query.facets.map((f) => ({ ...f, size })) } : query;
}

export function selectionOf(ctx: GraphqlContext, entityTypes: string[], filter?: unknown) {
  return catchPlanning(() => planSelection(searchSchemaOf(ctx.catalog.registry), { entityTypes, ...(filter !== undefined ? { filter } : {}) }));
}

/** Hits as GraphQL search results; hits of types this API does not serve are left out. */
export function searchResultsOf(ctx: GraphqlContext, result: IndexResult) {
  return result.hits.flatMap((h) => {
    const entity = refOf(ctx, h.urn);
    return entity ? [{ entity, matchedFields: h.matchedFields }] : [];
  });
}

export function facetsOf(ctx: GraphqlContext, result: IndexResult) {
  return result.facets.map((f) => ({
    field: f.field,
    displayName: f.displayName ?? f.field,
    aggregations: f.values.map((v) => ({ value: v.value, count: v.count, entity: refOf(ctx, v.value) })),
  }));
}
