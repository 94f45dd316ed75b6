/** timeseries-indexer: projects time-series change logs from Kafka into the Elasticsearch time-series indices. */
import { createLogger, defaultRegistry } from '@cairn/core';
import { createMetrics } from '@cairn/observability';
import { closeServer, intFromEnv, listen, openDistributedPorts, probeHealth, runService, startTimeseriesIndexer, workerApp } from '@cairn/composition';

runService('timeseries-indexer', async () => {
  const env = process.env;
  const logger = createLogger('timeseries-indexer');
  const registry = defaultRegistry();
  const ports = await openDistributedPorts(env, registry, logger);
  const metrics = createMetrics('timeseries-indexer');
  const consumer = startTimeseriesIndexer(ports, registry, metrics);
  const { server, port } = await listen(workerApp(metrics, () => probeHealth(ports.probes)), intFromEnv(env, 'PORT', 10094), env.HOST ?? '127.0.0.1');
  logger.info('indexing time-series change logs', { port });
  return {
    close: async () => {
      await closeServer(server);
      await consumer.stop();
      await ports.close();
    },
  };
});
