/** `/entitiesV2`: latest aspects of one entity or a batch, as enveloped aspects. */
import { Router } from 'express';
import { badRequest, queryList, RestliError, type EntitySpec, type Urn } from '@cairn/core';
import type { AspectReader } from '@cairn/ports';
import type { CatalogContext } from '../context';
import { entityUrn, readerOf, route } from '../http';
import { entityResponseJson, withKeyAspect } from '../envelopes';

const MAX_BATCH = 1000;

/** Aspect names asked for (`?aspects=List(...)`), checked against the entity; undefined = every aspect. */
export function wantedAspects(url: string, entity: EntitySpec): Set<string> | undefined {
  // Aspect names hold no commas, so a comma that arrived encoded (`List(a%2Cb)`) still separates.
  const names = queryList(url, 'aspects')?.flatMap((n) => n.split(','));
  if (!names) return undefined;
  for (const n of names) if (!entity.aspects.has(n)) throw badRequest(`'${n}' is not an aspect of entity ${entity.name}`);
  return new Set(names);
}

/** One entity's latest aspects as the `entitiesV2` JSON, whichever HTTP path asked (see direct-routes.ts). */
export async function readEntity(ctx: CatalogContext, store: AspectReader, urn: Urn, entity: EntitySpec, wanted: Set<string> | undefined): Promise<string> {
  const names = wanted ? [...wanted].filter((n) => entity.aspects.get(n)?.kind !== 'timeseries') : undefined;
  const rows = await store.getLatest([urn.raw], names);
  return entityResponseJson(urn, entity, withKeyAspect(ctx.registry, urn, entity, rows, wanted));
}

export function entitiesV2Router(ctx: CatalogContext): Router {
  const router = Router();

  router.get(
    '/entitiesV2/:urn',
    route(async (req, res) => {
      const { urn, entity } = entityUrn(ctx.registry, req.params.urn);
      res.type('json').send(await readEntity(ctx, readerOf(ctx, res), urn, entity, wantedAspects(req.originalUrl, entity)));
    }),
  );

  router.get(
    '/entitiesV2',
    route(async (req, res) => {
      const ids = queryList(req.originalUrl, 'ids');
      if (!ids || ids.length === 0) throw badRequest("Parameter 'ids' is required: ids=List(<urn>,...)");
      if (ids.length > MAX_BATCH) throw badRequest(`At most ${MAX_BATCH} ids per batch get, got ${ids.length}`);
      const results = new Map<string, string>();
      const errors: Record<string, unknown> = {};
      const store = readerOf(ctx, res);
      for (const id of ids) {
        try {
          const { urn, entity } = entityUrn(ctx.registry, id);
          results.set(urn.raw, await readEntity(ctx, store, urn, entity, wantedAspects(req.originalUrl, entity)));
        } catch (err) {
          if (!(err instanceof RestliError)) throw err;
          errors[id] = err.toBody();
        }
      }
      const entries = [...results].map(([urn, json]) => `${JSON.stringify(urn)}:${json}`);
      res.type('json').send(`{"results":{${entries.join(',')}},"statuses":{},"errors":${JSON.stringify(errors)}}`);
    }),
  );

  return router;
}
