/** `/entities?action=deleteReferences`: removes every reference to a URN from the aspects that hold one. */
import { parseBoolParam } from '@cairn/core';
import { ReferenceRemover } from '@cairn/pipeline';
import type { CatalogContext } from '../context';
import { actorOf, body, entityUrn, type ActionTable } from '../http';

export function entityReferenceActions(ctx: CatalogContext): ActionTable {
  const remover = new ReferenceRemover(ctx.registry, ctx.store, ctx.graph, ctx.ingest);
  return {
    deleteReferences: async (req, res) => {
      const params = body(req);
      const { urn } = entityUrn(ctx.registry, params.urn);
      return remover.remove(urn.raw, { dryRun: parseBoolParam(params.dryRun, 'dryRun', false), actor: actorOf(res) });
    },
  };
}
