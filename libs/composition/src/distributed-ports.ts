/** The ports on the real backends: Kafka for the logs, MongoDB for the store, Elasticsearch for the indexes. */
import type { Logger, Registry } from '@cairn/core';
import type { KafkaConnection } from '@cairn/adapter-kafka';
import type { FailedMetadataChangeProposal, SchemaRegistryCore } from '@cairn/events';
import { PROPOSAL_RESULTS_TOPIC, StoreRestater, type PipelineLogs, type ProposalResult } from '@cairn/pipeline';
import { PERSISTER_GROUP, TOPIC_NAMES, type CatalogPorts } from './ports';

export type Env = Readonly<Record<string, string | undefined>>;

/** A message nobody can decode still reaches the failed-proposal topic, so the partition moves on. */
function failedProposalOf(raw: { id: string; key?: string | null; value?: Buffer | null }, error: Error): FailedMetadataChangeProposal {
  return {
    metadataChangeProposal: { entityType: 'unknown', changeType: 'UPSERT', ...(raw.key ? { entityUrn: raw.key } : {}) },
    error: `Undecodable message ${raw.id}: ${error.message}; value (base64): ${raw.value ? raw.value.toString('base64') : ''}`,
  };
}

export interface DistributedPorts extends CatalogPorts {
  /** The registry whose ids frame the Avro values on the topics. */
  readonly schemaRegistry: SchemaRegistryCore;
}

/** `onUndecodedFailure` counts what goes to the failed-proposal topic undecoded, before any persister sees it. */
export async function openDistributedPorts(env: Env, registry: Registry, logger: Logger, onUndecodedFailure?: () => void): Promise<DistributedPorts> {
  // Loaded here, not with the module: the embedded service never needs these clients, and they take a while to load.
  const [{ kafkaConnection }, { openMongoAspectStore }, { elasticConnection, elasticSettingsFromEnv, openElasticIndexes }] = await Promise.all([
    import('@cairn/adapter-kafka'),
    import('@cairn/adapter-mongo'),
    import('@cairn/adapter-elastic'),
  ]);
  const kafka: KafkaConnection = kafkaConnection(env, { logger });
  const failedProposals = kafka.eventLog(TOPIC_NAMES.failedProposals);
  const proposals = kafka.eventLog(TOPIC_NAMES.proposals, {
    onUndecodable: async (raw, error) => {
      logger.warn('undecodable proposal sent to the failed-proposal topic', { id: raw.id, error: error.message });
      await failedProposals.append([{ key: raw.key ?? 'unknown', value: failedProposalOf(raw, error) }]);
      onUndecodedFailure?.();
    },
  });
  const versionedChangeLog = kafka.eventLog(TOPIC_NAMES.versionedChangeLog);
  const timeseriesChangeLog = kafka.eventLog(TOPIC_NAMES.timeseriesChangeLog);
  const results = kafka.eventLog<ProposalResult>(PROPOSAL_RESULTS_TOPIC);
  // Creating the topics up front makes a missing broker fail the start, not the first request.
  await Promise.all([proposals, failedProposals, versionedChangeLog, timeseriesChangeLog, results].map((l) => l.start()));
  const logs: PipelineLogs = { proposals, failedProposals, versionedChangeLog, timeseriesChangeLog };

  const store = await openMongoAspectStore(env.MONGODB_URI || 'mongodb://127.0.0.1:27017', env.MONGODB_DATABASE || 'cairn');
  const es = elasticConnection(elasticSettingsFromEnv(env));
  const indexes = await openElasticIndexes(es, registry);
  return {
    schemaRegistry: kafka.registry,
    logs,
    results,
    store,
    ...indexes,
    restater: new StoreRestater(registry, store, versionedChangeLog),
    probes: {
      kafka: () => logs.proposals.lag(PERSISTER_GROUP),
      mongodb: () => store.exists('urn:li:corpuser:__health_probe'),
      elasticsearch: () => es.client.cluster.health({ timeout: '2s' }),
    },
    close: async () => {
      await kafka.close();
      await store.close();
      await es.client.close();
    },
  };
}
