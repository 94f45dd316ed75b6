/**
 * `/entities` read actions over the search index: search, searchAcrossEntities, scrollAcrossEntities,
 * filter, list, autocomplete, browse, getBrowsePaths and entity counts; listUrns reads the store.
 */
import { badRequest } from '@cairn/core';
import { planAutocomplete, planBrowse, planSearch, planSelection, searchSchemaOf } from '@cairn/search';
import type { CatalogContext } from '../context';
import { body, entityUrn, optionalInt, optionalString, requireString, type ActionTable } from '../http';
import { optionalObject, pageOf, stringList } from '../search-params';
import { autocompleteResponse, browseResponse, scrollResponse, searchResponse } from '../search-results';

const DEFAULT_KEEP_ALIVE = '5m';
const KEEP_ALIVE = /^\d+(ms|s|m|h|d)$/;
const DEFAULT_AUTOCOMPLETE_LIMIT = 10;
const MAX_AUTOCOMPLETE_LIMIT = 1000;
const MAX_COUNT_TYPES = 100;

export function entitySearchActions(ctx: CatalogContext): ActionTable {
  const schema = searchSchemaOf(ctx.registry);

  const entityOf = (params: Record<string, unknown>) => schema.entityType(requireString(params, 'entity'));

  const search = async (params: Record<string, unknown>, entityTypes: string[], input: string) => {
    const page = pageOf(params);
    const query = planSearch(schema, { entityTypes, input, filter: optionalObject(params, 'filter'), sort: optionalObject(params, 'sort') });
    return searchResponse(await ctx.search.search(query, page), page.from, page.size);
  };

  return {
    search: async (req) => {
      const params = body(req);
      return search(params, [entityOf(params)], optionalString(params, 'input') ?? '*');
    },
    searchAcrossEntities: async (req) => {
      const params = body(req);
      return search(params, stringList(params, 'entities') ?? [], optionalString(params, 'input') ?? '*');
    },
    filter: async (req) => {
      const params = body(req);
      if (optionalObject(params, 'filter') === undefined) throw badRequest("Parameter 'filter' is required");
      return search(params, [entityOf(params)], '*');
    },
    list: async (req) => {
      const params = body(req);
      const { entities, numEntities, from, pageSize } = await search(params, [entityOf(params)], '*');
      return { entities, start: from, count: pageSize, total: numEntities };
    },
    scrollAcrossEntities: async (req) => {
      const params = body(req);
      const size = pageOf(params, 'start', 'count').size;
      const keepAlive = optionalString(params, 'keepAlive') ?? DEFAULT_KEEP_ALIVE;
      if (!KEEP_ALIVE.test(keepAlive)) throw badRequest(`Parameter 'keepAlive' must be a duration like 5m, got '${keepAlive}'`);
      const scrollId = optionalString(params, 'scrollId');
      const query = planSearch(schema, {
        entityTypes: stringList(params, 'entities') ?? [],
        input: optionalString(params, 'input') ?? '*',
        filter: optionalObject(params, 'filter'),
        sort: optionalObject(params, 'sort'),
      });
      return scrollResponse(await ctx.search.scroll(query, { ...(scrollId ? { scrollId } : {}), keepAlive, size }), size);
    },
    autocomplete: async (req) => {
      const params = body(req);
      const query = requireString(params, 'query');
      const limit = optionalInt(params, 'limit') ?? DEFAULT_AUTOCOMPLETE_LIMIT;
      if (limit < 0 || limit > MAX_AUTOCOMPLETE_LIMIT) throw badRequest(`Parameter 'limit' must be between 0 and ${MAX_AUTOCOMPLETE_LIMIT}, got ${limit}`);
      const field = optionalString(params, 'field');
      const planned = planAutocomplete(schema, { entityTypes: [entityOf(params)], query, limit, filter: optionalObject(params, 'filter'), ...(field ? { field } : {}) });
      return autocompleteResponse(await ctx.search.autocomplete(planned), query);
    },
    browse: async (req) => {
      const params = body(req);
      const path = optionalString(params, 'path') ?? '';
      const { from, size } = pageOf(params, 'start', 'limit');
      const planned = planBrowse(schema, { entityType: entityOf(params), path, filter: optionalObject(params, 'filter'), from, size });
      return browseResponse(await ctx.search.browse(planned), path, from, size);
    },
    getBrowsePaths: async (req) => {
      const { urn, entity } = entityUrn(ctx.registry, body(req).urn);
      return ctx.search.browsePaths(entity.name, urn.raw);
    },
    getTotalEntityCount: async (req) => {
      const entityType = entityOf(body(req));
      return (await ctx.search.countByType(planSelection(schema, { entityTypes: [entityType] })))[entityType] ?? 0;
    },
    batchGetTotalEntityCount: async (req) => {
      const types = stringList(body(req), 'entities');
      if (!types || types.length === 0) throw badRequest("Parameter 'entities' must be a non-empty list of entity types");
      if (types.length > MAX_COUNT_TYPES) throw badRequest(`At most ${MAX_COUNT_TYPES} entity types per call`);
      return ctx.search.countByType(planSelection(schema, { entityTypes: types }));
    },
    listUrns: async (req) => {
      const params = body(req);
      const entity = ctx.registry.entity(entityOf(params));
      if (!entity) throw badRequest(`Unknown entity type '${String(params.entity)}'`);
      const { from, size } = pageOf(params);
      const scan = { entityType: entity.name, aspect: entity.keyAspect.name };
      const [rows, total] = await Promise.all([ctx.store.scanLatest({ ...scan, start: from, limit: size }), ctx.store.countLatest(scan)]);
      return { entities: rows.map((r) => r.urn), start: from, count: rows.length, total };
    },
  };
}
