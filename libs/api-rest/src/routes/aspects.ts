/** `/aspects`: proposal ingest, versioned aspect reads and time-series values. */
import { Router } from 'express';
import { badRequest, notFound, parseBoolParam, parseIntParam, queryParam } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import { planTimeseriesFilter } from '@cairn/search';
import type { CatalogContext } from '../context';
import { actions, actorOf, body, entityUrn, optionalInt, optionalString, readerOf, requireString, route } from '../http';
import { recordUnion } from '../envelopes';
import { restoreIndicesAction } from './operations';

const DEFAULT_TIMESERIES_LIMIT = 10000;
const MAX_PROPOSALS_PER_BATCH = 10000;

/** The `ingestProposal` action, whichever HTTP path its request came through (see direct-routes.ts). */
export async function ingestProposal(ctx: CatalogContext, params: Record<string, unknown>, actor: string): Promise<string> {
  const proposal = params.proposal as MetadataChangeProposal | undefined;
  if (!proposal || typeof proposal !== 'object') throw badRequest("Parameter 'proposal' is required");
  const async = parseBoolParam(params.async, 'async', ctx.info.asyncIngestDefault);
  await ctx.ingest.propose([proposal], { async, actor });
  return proposal.entityUrn ?? '';
}

export function aspectsRouter(ctx: CatalogContext): Router {
  const router = Router();

  router.post(
    '/aspects',
    actions('aspects', {
      ingestProposal: async (req, res) => ingestProposal(ctx, body(req), actorOf(res)),
      ingestProposalBatch: async (req, res) => {
        const params = body(req);
        const proposals = params.proposals;
        if (!Array.isArray(proposals) || proposals.length === 0) throw badRequest("Parameter 'proposals' must be a non-empty list");
        if (proposals.length > MAX_PROPOSALS_PER_BATCH) throw badRequest(`At most ${MAX_PROPOSALS_PER_BATCH} proposals per batch, got ${proposals.length}`);
        const async = parseBoolParam(params.async, 'async', ctx.info.asyncIngestDefault);
        await ctx.ingest.propose(proposals as MetadataChangeProposal[], { async, actor: actorOf(res) });
        return (proposals as MetadataChangeProposal[]).map((p) => p.entityUrn ?? '');
      },
      getTimeseriesAspectValues: async (req) => {
        const params = body(req);
        const { urn, entity } = entityUrn(ctx.registry, params.urn);
        const entityName = optionalString(params, 'entity') ?? entity.name;
        if (ctx.registry.entity(entityName) !== entity) throw badRequest(`Entity '${entityName}' does not match urn ${urn.raw}`);
        const aspectName = requireString(params, 'aspect');
        const aspect = entity.aspects.get(aspectName);
        if (!aspect || aspect.kind !== 'timeseries') throw badRequest(`'${aspectName}' is not a time-series aspect of ${entity.name}`);
        const startTimeMillis = optionalInt(params, 'startTimeMillis');
        const endTimeMillis = optionalInt(params, 'endTimeMillis');
        const limit = optionalInt(params, 'limit') ?? DEFAULT_TIMESERIES_LIMIT;
        if (limit < 1 || limit > DEFAULT_TIMESERIES_LIMIT) throw badRequest(`Parameter 'limit' must be between 1 and ${DEFAULT_TIMESERIES_LIMIT}`);
        const latestValue = parseBoolParam(params.latestValue, 'latestValue', false);
        const filter = planTimeseriesFilter(aspect, params.filter);
        const docs = await ctx.timeseries.query({
          entityType: entity.name,
          aspect: aspect.name,
          urn: urn.raw,
          ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
          ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
          ...(filter.length ? { filter } : {}),
          limit: latestValue ? 1 : limit,
        });
        return {
          entityName: entity.name,
          aspectName: aspect.name,
          ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
          ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
          limit,
          values: docs.map((d) => ({
            aspect: { value: d.event, contentType: 'application/json' },
            ...(d.systemMetadata ? { systemMetadata: JSON.parse(d.systemMetadata) } : {}),
          })),
        };
      },
      getCount: async (req) => {
        const params = body(req);
        const aspect = requireString(params, 'aspect');
        const urnLike = optionalString(params, 'urnLike');
        return ctx.store.countLatest({ aspect, ...(urnLike ? { urnLike } : {}) });
      },
      restoreIndices: restoreIndicesAction(ctx),
    }),
  );

  router.get(
    '/aspects/:urn',
    route(async (req, res) => {
      const { urn, entity } = entityUrn(ctx.registry, req.params.urn);
      const aspectName = queryParam(req.originalUrl, 'aspect');
      if (!aspectName) throw badRequest("Parameter 'aspect' is required");
      const version = parseIntParam(queryParam(req.originalUrl, 'version'), 'version', 0);
      if (version < 0) throw badRequest("Parameter 'version' must not be negative");
      const spec = entity.aspects.get(aspectName);
      if (!spec) throw badRequest(`'${aspectName}' is not an aspect of entity ${entity.name}`);
      const missing = notFound(`Did not find urn: ${urn.raw} aspect: ${aspectName} version: ${version}`);
      if (spec.kind === 'timeseries') {
        if (version !== 0) throw missing;
        const [latest] = await ctx.timeseries.query({ entityType: entity.name, aspect: spec.name, urn: urn.raw, limit: 1 });
        if (!latest) throw missing;
        res.json({ version: 0, aspect: recordUnion(spec, JSON.parse(latest.event)) });
        return;
      }
      // A secret aspect the actor may not read answers as if absent.
      const row = await readerOf(ctx, res).getVersion(urn.raw, aspectName, version);
      if (!row) throw missing;
      res.json({ version, aspect: recordUnion(spec, JSON.parse(row.metadata)) });
    }),
  );

  return router;
}
