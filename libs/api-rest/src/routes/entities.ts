/** `/entities`: legacy snapshot ingest and reads, existence and hard deletes, and the search-side actions. */
import { Router } from 'express';
import { badRequest, invalidArguments, notFound, type EntitySpec, type Urn } from '@cairn/core';
import type { MetadataChangeProposal, SystemMetadata } from '@cairn/events';
import { proposalsOfSnapshot } from '@cairn/pipeline';
import type { StoredAspect } from '@cairn/ports';
import type { CatalogContext } from '../context';
import { actions, actorOf, body, entityUrn, optionalInt, optionalString, readerOf, route } from '../http';
import { recordUnion, withKeyAspect } from '../envelopes';
import { entityReferenceActions } from './entity-references';
import { entitySearchActions } from './entity-search';

function snapshotOf(entity: { value?: unknown } | undefined): unknown {
  if (!entity || typeof entity !== 'object' || !('value' in entity)) throw badRequest("Parameter 'entity' must be {value: {<snapshot record name>: {...}}}");
  return entity.value;
}

function snapshotResponse(urn: Urn, entity: EntitySpec, rows: StoredAspect[]) {
  if (!entity.snapshot) throw badRequest(`Entity type ${entity.name} has no snapshot form; read it through /entitiesV2`);
  const aspects = rows.flatMap((r) => {
    const spec = entity.aspects.get(r.aspect);
    return spec ? [recordUnion(spec, JSON.parse(r.metadata))] : [];
  });
  const snapshot: Record<string, unknown> = { urn: urn.raw, aspects };
  // The spec's glossary term example carries these two aspects directly on the snapshot.
  if (entity.name === 'glossaryTerm') {
    for (const r of rows) if (r.aspect === 'ownership' || r.aspect === 'glossaryTermInfo') snapshot[r.aspect] = JSON.parse(r.metadata);
  }
  return { value: { [entity.snapshot]: snapshot } };
}

export function entitiesRouter(ctx: CatalogContext): Router {
  const router = Router();

  const ingestSnapshots = async (snapshots: unknown[], systemMetadata: (SystemMetadata | undefined)[], actor: string) => {
    const proposals: MetadataChangeProposal[] = snapshots.flatMap((s, i) => proposalsOfSnapshot(ctx.registry, s, systemMetadata[i]));
    await ctx.ingest.propose(proposals, { actor });
  };

  router.post(
    '/entities',
    actions('entities', {
      ...entitySearchActions(ctx),
      ...entityReferenceActions(ctx),
      ingest: async (req, res) => {
        const params = body(req);
        await ingestSnapshots([snapshotOf(params.entity as { value?: unknown })], [params.systemMetadata as SystemMetadata | undefined], actorOf(res));
        return undefined;
      },
      batchIngest: async (req, res) => {
        const params = body(req);
        if (!Array.isArray(params.entities)) throw badRequest("Parameter 'entities' must be a list");
        const metas = params.systemMetadata === undefined || params.systemMetadata === null ? undefined : params.systemMetadata;
        if (metas !== undefined && (!Array.isArray(metas) || metas.length !== params.entities.length)) {
          throw invalidArguments(`entities and systemMetadata must have the same length (${params.entities.length} vs ${Array.isArray(metas) ? metas.length : 'not a list'})`);
        }
        const snapshots = params.entities.map((e) => snapshotOf(e as { value?: unknown }));
        await ingestSnapshots(snapshots, metas ?? snapshots.map(() => undefined), actorOf(res));
        return undefined;
      },
      exists: async (req) => {
        const { urn } = entityUrn(ctx.registry, body(req).urn);
        return ctx.store.exists(urn.raw);
      },
      delete: async (req, res) => {
        const params = body(req);
        const { urn, entity } = entityUrn(ctx.registry, params.urn);
        const aspectName = optionalString(params, 'aspectName');
        const startTimeMillis = optionalInt(params, 'startTimeMillis');
        const endTimeMillis = optionalInt(params, 'endTimeMillis');
        const aspect = aspectName === undefined ? entity.keyAspect : entity.aspects.get(aspectName);
        if (!aspect) throw badRequest(`'${aspectName}' is not an aspect of entity ${entity.name}`);
        if (aspect.kind === 'timeseries') {
          const timeseriesRows = await ctx.timeseries.deleteByUrn(urn.raw, {
            aspect: aspect.name,
            ...(startTimeMillis !== undefined ? { startTimeMillis } : {}),
            ...(endTimeMillis !== undefined ? { endTimeMillis } : {}),
          });
          return { urn: urn.raw, timeseriesRows };
        }
        if (!(await ctx.store.exists(urn.raw)) && aspect.kind === 'key') {
          const timeseriesRows = await ctx.timeseries.deleteByUrn(urn.raw);
          if (timeseriesRows === 0) throw notFound(`Entity ${urn.raw} does not exist`);
          return { urn: urn.raw, rows: 0, timeseriesRows };
        }
        const [result] = await ctx.ingest.propose(
          [{ entityType: entity.name, entityUrn: urn.raw, changeType: 'DELETE', aspectName: aspect.name }],
          { actor: actorOf(res) },
        );
        const timeseriesRows = aspect.kind === 'key' ? await ctx.timeseries.deleteByUrn(urn.raw) : 0;
        return { urn: urn.raw, rows: result.rows ?? 0, timeseriesRows };
      },
    }),
  );

  router.get(
    '/entities/:urn',
    route(async (req, res) => {
      const { urn, entity } = entityUrn(ctx.registry, req.params.urn);
      const rows = withKeyAspect(ctx.registry, urn, entity, await readerOf(ctx, res).getLatest([urn.raw]));
      res.json(snapshotResponse(urn, entity, rows));
    }),
  );

  return router;
}
