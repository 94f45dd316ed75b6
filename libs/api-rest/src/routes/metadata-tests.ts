/** `/test?action=evaluate` (also `/gms/test`): runs metadata tests on an entity, optionally storing the results. */
import { Router } from 'express';
import { badRequest, notFound, parseBoolParam } from '@cairn/core';
import { MetadataTestEvaluator } from '@cairn/pipeline';
import type { CatalogContext } from '../context';
import { actions, actorOf, body, entityUrn, readerOf } from '../http';
import { stringList } from '../search-params';

const RESULTS_ASPECT = 'testResults';

export function metadataTestsRouter(ctx: CatalogContext): Router {
  const router = Router();

  router.post(
    '/test',
    actions('test', {
      evaluate: async (req, res) => {
        const params = body(req);
        const { urn, entity } = entityUrn(ctx.registry, params.urn);
        if (!(await ctx.store.exists(urn.raw))) throw notFound(`Entity ${urn.raw} does not exist`);
        const testUrns = stringList(params, 'testUrns') ?? stringList(params, 'tests');
        const push = parseBoolParam(params.shouldPush ?? params.push, 'shouldPush', false);
        // Tests see the entity as the caller may read it: a rule on a secret aspect cannot reveal it.
        const evaluator = new MetadataTestEvaluator(ctx.registry, readerOf(ctx, res));
        const results = await evaluator.evaluate(urn.raw, await evaluator.tests(testUrns));
        if (push) {
          if (!entity.aspects.has(RESULTS_ASPECT)) throw badRequest(`Entity type ${entity.name} has no ${RESULTS_ASPECT} aspect to store results in`);
          await ctx.ingest.propose(
            [
              {
                entityType: entity.name,
                entityUrn: urn.raw,
                changeType: 'UPSERT',
                aspectName: RESULTS_ASPECT,
                aspect: { value: JSON.stringify(results), contentType: 'application/json' },
              },
            ],
            { actor: actorOf(res) },
          );
        }
        return results;
      },
    }),
  );

  return router;
}
