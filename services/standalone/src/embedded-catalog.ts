/**
 * The whole pipeline in one process on the embedded engine: proposal log → persister → aspect
 * store + change logs → search/graph and time-series projectors, and the HTTP APIs over them. The
 * pipeline runs on a thread of its own, which owns the catalog's files; this thread serves HTTP,
 * checks proposals and reads the store.
 */
import { join } from 'node:path';
import { createLogger, defaultRegistry } from '@cairn/core';
import { WriteNotifier } from '@cairn/pipeline';
import { createMetrics } from '@cairn/observability';
import { PipelineThread, pipelineApiPorts, startApi, type ApiPorts, type RunningApi } from '@cairn/composition';
import type { StandaloneConfig } from './config';

export interface RunningCatalog extends RunningApi {
  readonly ports: ApiPorts;
  /** The thread the pipeline runs on. */
  readonly pipeline: PipelineThread;
}

export async function startEmbeddedCatalog(config: StandaloneConfig): Promise<RunningCatalog> {
  // The persister on the pipeline thread settles waiting writes through this notifier.
  const notifier = new WriteNotifier();
  const pipeline = await PipelineThread.start({ dataDir: config.dataDir, durability: config.durability, searchThreads: config.searchThreads }, notifier);
  const ports = pipelineApiPorts(pipeline, join(config.dataDir, 'catalog.db'));
  const stopPipeline = async () => {
    ports.close();
    await pipeline.close();
  };
  const registry = defaultRegistry();
  const metrics = createMetrics('standalone');
  const secrets = { production: config.production, generatedFile: join(config.dataDir, 'auth-secrets.json') };
  // A refused start (missing secrets in production) leaves no consumer running and the store closed.
  const api = await startApi(ports, registry, notifier, metrics, config, {
    serverType: 'standalone',
    secrets,
    threadMetrics: async () => [await pipeline.metrics()],
  }).catch(async (err: unknown) => {
    await stopPipeline();
    throw err;
  });
  createLogger('standalone').info('listening', { host: config.host, port: api.port, dataDir: config.dataDir });
  return {
    ...api,
    ports,
    pipeline,
    close: async () => {
      await api.close();
      await stopPipeline();
    },
  };
}
