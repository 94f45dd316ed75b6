/**
 * gms: the REST and GraphQL APIs and the schema registry, on Kafka, MongoDB and Elasticsearch.
 * Writes go to Kafka as proposals; a synchronous write waits for mce-consumer's outcome, read
 * from the results topic.
 */
import { hostname } from 'node:os';
import { createLogger, defaultRegistry } from '@cairn/core';
import { createMetrics } from '@cairn/observability';
import { relayResults, WriteNotifier } from '@cairn/pipeline';
import { SCHEMA_REGISTRY_PREFIX, schemaRegistryRouter, writesNeed } from '@cairn/api-rest';
import { apiConfigFromEnv, openDistributedPorts, runService, startApi } from '@cairn/composition';

runService('gms', async () => {
  const env = process.env;
  const logger = createLogger('gms');
  const registry = defaultRegistry();
  const config = apiConfigFromEnv(env, { authEnabled: true });
  const ports = await openDistributedPorts(env, registry, logger);
  const metrics = createMetrics('gms');
  const notifier = new WriteNotifier();
  const relay = relayResults(ports.results, `gms-results-${hostname()}-${config.port}`, notifier);
  const api = await startApi(ports, registry, notifier, metrics, config, { serverType: 'prod', lagSampleMs: 1000, secrets: { production: true } }, (app) =>
    app.use(SCHEMA_REGISTRY_PREFIX, writesNeed(['MANAGE_INGESTION']), schemaRegistryRouter(ports.schemaRegistry)),
  );
  logger.info('listening', { host: config.host, port: api.port });
  return {
    close: async () => {
      await api.close();
      await relay.stop();
      await ports.close();
    },
  };
});
