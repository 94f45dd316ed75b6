/** search, searchAcrossEntities, scrollAcrossEntities, searchAcrossLineage, autoComplete(ForMultiple), browse, browsePaths. */
import type { AutocompleteQuery, AutocompleteResult } from '@cairn/ports';
import { planAutocomplete, planBrowse, searchSchemaOf } from '@cairn/search';
import type { GraphqlContext } from '../context';
import { entityNamesOf, typeOfEntity, typeOfEnum } from '../entity-types';
import { badInput } from '../errors';
import { pageSize } from '../limits';
import { refsOf, requireRef } from '../refs';
import { lineageHops } from './relationships';
import {
  catchPlanning,
  facetsOf,
  filterOf,
  searchQueryOf,
  searchResultsOf,
  type FilterInputs,
  type SearchFlags,
} from './search-plans';

const DEFAULT_COUNT = 10;
const DEFAULT_SCROLL_KEEP_ALIVE = '5m';
/** Lineage walks stop after this many hops or entities. */
const MAX_LINEAGE_HOPS = 10;
const MAX_LINEAGE_ENTITIES = 1000;

interface SearchInput extends FilterInputs {
  type?: string;
  types?: string[] | null;
  query: string;
  start?: number | null;
  count?: number | null;
  searchFlags?: SearchFlags | null;
}

async function runSearch(ctx: GraphqlContext, entityTypes: string[], input: SearchInput) {
  const query = searchQueryOf(ctx, { entityTypes, input: input.query, filter: filterOf(input) }, input.searchFlags);
  const start = Math.max(0, input.start ?? 0);
  const size = pageSize(input.count, DEFAULT_COUNT, ctx.limits);
  const result = await ctx.catalog.search.search(query, { from: start, size });
  const searchResults = searchResultsOf(ctx, result);
  // As the reference, `count` is the page size the search used (its pageSize), here after the cap.
  return { start, count: size, total: result.total, searchResults, facets: facetsOf(ctx, result) };
}

function singleType(type: string): string {
  const t = typeOfEnum(type);
  if (!t) throw badInput(`Entity type ${type} cannot be searched`);
  return t.entityName;
}

interface ScrollInput extends FilterInputs {
  types?: string[] | null;
  query: string;
  scrollId?: string | null;
  keepAlive?: string | null;
  count?: number | null;
  searchFlags?: SearchFlags | null;
}

async function scrollAcrossEntities(_: unknown, { input }: { input: ScrollInput }, ctx: GraphqlContext) {
  const query = searchQueryOf(ctx, { entityTypes: entityNamesOf(input.types), input: input.query, filter: filterOf(input) }, input.searchFlags);
  const result = await ctx.catalog.search.scroll(query, {
    ...(input.scrollId ? { scrollId: input.scrollId } : {}),
    keepAlive: input.keepAlive ?? DEFAULT_SCROLL_KEEP_ALIVE,
    size: pageSize(input.count, DEFAULT_COUNT, ctx.limits),
  });
  const searchResults = searchResultsOf(ctx, result);
  return { nextScrollId: result.nextScrollId ?? null, count: searchResults.length, total: result.total, searchResults, facets: facetsOf(ctx, result) };
}

interface LineageSearchInput extends SearchInput {
  urn?: string | null;
  direction: 'UPSTREAM' | 'DOWNSTREAM';
}

/** Breadth-first over lineage edges: each reached entity with its hop count and one path to it. */
async function walkLineage(ctx: GraphqlContext, urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM') {
  const reached = new Map<string, { degree: number; path: string[] }>();
  let frontier = [{ urn, path: [urn] }];
  for (let degree = 1; degree <= MAX_LINEAGE_HOPS && frontier.length > 0 && reached.size < MAX_LINEAGE_ENTITIES; degree++) {
    const next: { urn: string; path: string[] }[] = [];
    for (const node of frontier) {
      for (const hop of await lineageHops(ctx, node.urn, direction)) {
        if (hop.urn === urn || reached.has(hop.urn) || reached.size >= MAX_LINEAGE_ENTITIES) continue;
        const path = [...node.path, hop.urn];
        reached.set(hop.urn, { degree, path });
        next.push({ urn: hop.urn, path });
      }
    }
    frontier = next;
  }
  return reached;
}

/** The lineage walk, then a search restricted to the entities it reached (so text and filters apply). */
async function searchAcrossLineage(_: unknown, { input }: { input: LineageSearchInput }, ctx: GraphqlContext) {
  if (!input.urn) throw badInput('searchAcrossLineage needs the urn to start from');
  requireRef(ctx, input.urn);
  const reached = await walkLineage(ctx, input.urn, input.direction);
  const start = Math.max(0, input.start ?? 0);
  const size = pageSize(input.count, DEFAULT_COUNT, ctx.limits);
  const empty = { start, count: size, total: 0, searchResults: [], facets: [] };
  if (reached.size === 0) return empty;
  const urnFilter = { field: 'urn', values: [...reached.keys()], condition: 'EQUAL' };
  const own = filterOf(input) as { or: { and: unknown[] }[] } | undefined;
  const filter = { or: (own?.or ?? [{ and: [] }]).map((c) => ({ and: [...c.and, urnFilter] })) };
  const query = searchQueryOf(ctx, { entityTypes: entityNamesOf(input.types), input: input.query ?? '*', filter }, input.searchFlags);
  const result = await ctx.catalog.search.search(query, { from: start, size });
  const searchResults = searchResultsOf(ctx, result).map((r) => {
    const hit = reached.get(r.entity.urn);
    return { ...r, degree: hit?.degree ?? 1, paths: [{ path: refsOf(ctx, hit?.path ?? []) }] };
  });
  return { start, count: size, total: result.total, searchResults, facets: facetsOf(ctx, result) };
}

interface AutoCompleteInput extends FilterInputs {
  query: string;
  field?: string | null;
  limit?: number | null;
}

function autocompleteQuery(ctx: GraphqlContext, entityTypes: string[], input: AutoCompleteInput): AutocompleteQuery {
  return catchPlanning(() =>
    planAutocomplete(searchSchemaOf(ctx.catalog.registry), {
      entityTypes,
      query: input.query,
      ...(input.field ? { field: input.field } : {}),
      filter: filterOf(input),
      limit: pageSize(input.limit, DEFAULT_COUNT, ctx.limits),
    }),
  );
}

function suggestionsOf(ctx: GraphqlContext, result: AutocompleteResult) {
  return { suggestions: [...result.suggestions], entities: refsOf(ctx, result.urns) };
}

interface BrowseInput extends FilterInputs {
  type: string;
  path?: string[] | null;
  start?: number | null;
  count?: number | null;
}

async function browse(_: unknown, { input }: { input: BrowseInput }, ctx: GraphqlContext) {
  const path = input.path ?? [];
  const start = Math.max(0, input.start ?? 0);
  const query = catchPlanning(() =>
    planBrowse(searchSchemaOf(ctx.catalog.registry), {
      entityType: singleType(input.type),
      path: path.length ? `/${path.join('/')}` : '',
      filter: filterOf(input),
      from: start,
      size: pageSize(input.count, DEFAULT_COUNT, ctx.limits),
    }),
  );
  const result = await ctx.catalog.search.browse(query);
  const entities = refsOf(ctx, result.entities);
  return {
    entities,
    groups: result.groups,
    start,
    count: entities.length + result.groups.length,
    total: result.totalGroups + result.totalEntities,
    metadata: { path, totalNumEntities: result.totalBelow + result.totalEntities },
  };
}

export const searchResolvers = {
  Query: {
    search: (_: unknown, { input }: { input: SearchInput }, ctx: GraphqlContext) => runSearch(ctx, [singleType(input.type ?? '')], input),
    searchAcrossEntities: (_: unknown, { input }: { input: SearchInput }, ctx: GraphqlContext) => runSearch(ctx, entityNamesOf(input.types), input),
    scrollAcrossEntities,
    searchAcrossLineage,
    autoComplete: async (_: unknown, { input }: { input: AutoCompleteInput & { type?: string | null } }, ctx: GraphqlContext) => {
      const query = autocompleteQuery(ctx, input.type ? [singleType(input.type)] : entityNamesOf(null), input);
      return { query: input.query, ...suggestionsOf(ctx, await ctx.catalog.search.autocomplete(query)) };
    },
    autoCompleteForMultiple: async (_: unknown, { input }: { input: AutoCompleteInput & { types?: string[] | null } }, ctx: GraphqlContext) => {
      const types = entityNamesOf(input.types);
      const results = await ctx.catalog.search.autocompleteEach(types.map((t) => autocompleteQuery(ctx, [t], input)));
      const perType = types.map((t, i) => ({ type: typeOfEntity(t)?.enumValue, ...suggestionsOf(ctx, results[i]!) }));
      return { query: input.query, suggestions: perType.filter((r) => r.suggestions.length > 0) };
    },
    browse,
    browsePaths: async (_: unknown, { input }: { input: { type: string; urn: string } }, ctx: GraphqlContext) => {
      const paths = await ctx.catalog.search.browsePaths(singleType(input.type), requireRef(ctx, input.urn).urn);
      return paths.map((p) => ({ path: p.split('/').filter((s) => s.length > 0) }));
    },
  },
};

