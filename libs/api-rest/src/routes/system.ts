/** `/config` and `/health`: what clients probe before talking to the service. */
import { Router } from 'express';
import type { CatalogContext } from '../context';
import { route } from '../http';

export function systemRouter(ctx: CatalogContext): Router {
  const router = Router();

  router.get('/config', (_req, res) => {
    res.json({
      noCode: 'true',
      retention: 'true',
      statefulIngestionCapable: true,
      patchCapable: true,
      timeZone: 'GMT',
      versions: { 'linkedin/datahub': { version: ctx.info.version, commit: ctx.info.commit } },
      managedIngestion: { enabled: false, defaultCliVersion: '0.10.4' },
      datasetUrnNameCasing: false,
      supportsImpactAnalysis: false,
      telemetry: { enabledCli: false, enabledIngestion: false },
      datahub: { serverType: ctx.info.serverType },
    });
  });

  router.get(
    '/health',
    route(async (_req, res) => {
      const report = await ctx.health();
      res.status(report.healthy ? 200 : 503).json(report);
    }),
  );

  return router;
}
