/**
 * The whole pipeline in one process on the embedded engine: proposal log → persister → aspect
 * store + change logs → search/graph and time-series projectors, and the HTTP APIs over them.
 */
import { join } from 'node:path';
import { createLogger, defaultRegistry } from '@cairn/core';
import { WriteNotifier } from '@cairn/pipeline';
import { createMetrics } from '@cairn/observability';
import {
  EMBEDDED_SEARCH_BATCHING,
  openEmbeddedPorts,
  startApi,
  startPersister,
  startSearchIndexer,
  startTimeseriesIndexer,
  type CatalogPorts,
  type RunningApi,
} from '@cairn/composition';
import type { StandaloneConfig } from './config';

export interface RunningCatalog extends RunningApi {
  readonly ports: CatalogPorts;
}

export async function startEmbeddedCatalog(config: StandaloneConfig): Promise<RunningCatalog> {
  const registry = defaultRegistry();
  const ports = openEmbeddedPorts(config.dataDir, { durability: config.durability, searchThreads: config.searchThreads }, registry);
  const metrics = createMetrics('standalone');
  // In one process the persister settles waiting writes directly.
  const notifier = new WriteNotifier();
  const consumers = [
    startPersister(ports, registry, notifier, metrics),
    startSearchIndexer(ports, registry, metrics, EMBEDDED_SEARCH_BATCHING),
    startTimeseriesIndexer(ports, registry, metrics),
  ];
  const stopPipeline = async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    await ports.close();
  };
  const secrets = { production: config.production, generatedFile: join(config.dataDir, 'auth-secrets.json') };
  // A refused start (missing secrets in production) leaves no consumer running and the store closed.
  const api = await startApi(ports, registry, notifier, metrics, config, { serverType: 'standalone', secrets }).catch(async (err: unknown) => {
    await stopPipeline();
    throw err;
  });
  createLogger('standalone').info('listening', { host: config.host, port: api.port, dataDir: config.dataDir });
  return {
    ...api,
    ports,
    close: async () => {
      await api.close();
      await stopPipeline();
    },
  };
}
