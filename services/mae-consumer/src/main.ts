/** mae-consumer: projects versioned change logs from Kafka into the Elasticsearch search and graph indices. */
import { createLogger, defaultRegistry } from '@cairn/core';
import { createMetrics } from '@cairn/observability';
import { closeServer, intFromEnv, listen, openDistributedPorts, probeHealth, runService, startSearchIndexer, workerApp } from '@cairn/composition';

runService('mae-consumer', async () => {
  const env = process.env;
  const logger = createLogger('mae-consumer');
  const registry = defaultRegistry();
  const ports = await openDistributedPorts(env, registry, logger);
  const metrics = createMetrics('mae-consumer');
  const consumer = startSearchIndexer(ports, registry, metrics);
  const { server, port } = await listen(workerApp(metrics, () => probeHealth(ports.probes)), intFromEnv(env, 'PORT', 10093), env.HOST ?? '127.0.0.1');
  logger.info('indexing change logs', { port });
  return {
    close: async () => {
      await closeServer(server);
      await consumer.stop();
      await ports.close();
    },
  };
});
