/** Paged lists of one entity type (users, groups, domains, tests, root glossary entities), from the search index. */
import type { GraphqlContext } from '../context';
import { pageSize } from '../limits';
import { refsOf, type EntityRef } from '../refs';
import { searchQueryOf } from './search-plans';

const DEFAULT_COUNT = 20;

export async function listEntities(
  ctx: GraphqlContext,
  entityName: string,
  input: { start?: number | null; count?: number | null; query?: string | null },
  filter?: unknown,
): Promise<{ start: number; total: number; entities: EntityRef[] }> {
  const start = Math.max(0, input.start ?? 0);
  const query = searchQueryOf(ctx, { entityTypes: [entityName], input: input.query ?? '*', ...(filter ? { filter } : {}) }, { skipAggregates: true });
  const result = await ctx.catalog.search.search(query, { from: start, size: pageSize(input.count, DEFAULT_COUNT, ctx.limits) });
  return { start, total: result.total, entities: refsOf(ctx, result.hits.map((h) => h.urn)) };
}
