/** mce-consumer: applies proposals from Kafka to MongoDB and emits change logs; reports outcomes for synchronous writes. */
import { createLogger, defaultRegistry } from '@cairn/core';
import { createMetrics } from '@cairn/observability';
import { ResultLogSettler } from '@cairn/pipeline';
import { closeServer, intFromEnv, listen, openDistributedPorts, probeHealth, runService, startPersister, workerApp } from '@cairn/composition';

runService('mce-consumer', async () => {
  const env = process.env;
  const logger = createLogger('mce-consumer');
  const registry = defaultRegistry();
  const metrics = createMetrics('mce-consumer');
  const ports = await openDistributedPorts(env, registry, logger, () => metrics.proposalsFailed.inc());
  const settler = new ResultLogSettler(ports.results);
  const consumer = startPersister(ports, registry, settler, metrics);
  const { server, port } = await listen(workerApp(metrics, () => probeHealth(ports.probes)), intFromEnv(env, 'PORT', 10091), env.HOST ?? '127.0.0.1');
  logger.info('consuming proposals', { port });
  return {
    close: async () => {
      await closeServer(server);
      await consumer.stop();
      await settler.flush();
      await ports.close();
    },
  };
});
