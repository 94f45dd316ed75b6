/**
 * `/relationships`: edges of the graph index, in the spec's and the reference's shapes; and
 * `/openapi/relationships/v1/`, where the reference's Python graph client asks for related entities.
 */
import { Router } from 'express';
import { badRequest, queryList, queryParam } from '@cairn/core';
import type { CatalogContext } from '../context';
import { entityUrn, route } from '../http';

const DEFAULT_COUNT = 100;
const OPENAPI_DEFAULT_COUNT = 200;
const MAX_COUNT = 10000;

function pageOf(url: string, defaultCount: number): { start: number; count: number } {
  const start = Number(queryParam(url, 'start') ?? 0);
  const count = Number(queryParam(url, 'count') ?? defaultCount);
  if (!Number.isInteger(start) || start < 0) throw badRequest("Parameter 'start' must be a non-negative integer");
  if (!Number.isInteger(count) || count < 0 || count > MAX_COUNT) throw badRequest(`Parameter 'count' must be an integer between 0 and ${MAX_COUNT}`);
  return { start, count };
}

function directionOf(url: string): 'INCOMING' | 'OUTGOING' {
  const direction = queryParam(url, 'direction') ?? 'OUTGOING';
  if (direction !== 'INCOMING' && direction !== 'OUTGOING') throw badRequest(`Parameter 'direction' must be INCOMING or OUTGOING, got '${direction}'`);
  return direction;
}

export function relationshipsRouter(ctx: CatalogContext): Router {
  const router = Router();

  router.get(
    '/relationships',
    route(async (req, res) => {
      const url = req.originalUrl;
      const { urn } = entityUrn(ctx.registry, queryParam(url, 'urn'));
      const direction = directionOf(url);
      const types = queryList(url, 'types') ?? [];
      const { start, count } = pageOf(url, DEFAULT_COUNT);
      const { total, edges } = await ctx.graph.edges({ urn: urn.raw, direction, types, start, count });
      const relationships = edges.map((e) => ({
        type: e.relationshipType,
        entity: direction === 'OUTGOING' ? e.destination : e.source,
        ...(e.createdOn !== undefined ? { created: { time: e.createdOn, actor: e.createdActor ?? 'urn:li:corpuser:unknown' } } : {}),
      }));
      res.json({ start, count: relationships.length, total, relationships, entities: relationships.map((r) => r.entity) });
    }),
  );

  router.get(
    '/openapi/relationships/v1',
    route(async (req, res) => {
      const url = req.originalUrl;
      const { urn } = entityUrn(ctx.registry, queryParam(url, 'urn'));
      const direction = directionOf(url);
      const types = (queryList(url, 'relationshipTypes') ?? []).flatMap((t) => t.split(','));
      const { start, count } = pageOf(url, OPENAPI_DEFAULT_COUNT);
      const { total, edges } = await ctx.graph.edges({ urn: urn.raw, direction, types, start, count });
      const entities = edges.map((e) => ({ relationshipType: e.relationshipType, urn: direction === 'OUTGOING' ? e.destination : e.source }));
      res.json({ start, count: entities.length, total, entities });
    }),
  );

  router.delete(
    '/relationships',
    route(async (req, res) => {
      const { urn } = entityUrn(ctx.registry, queryParam(req.originalUrl, 'urn'));
      await ctx.graph.removeNode(urn.raw);
      res.status(200).end();
    }),
  );

  return router;
}
