import { kafkaSettingsFromEnv } from './kafka-settings';

describe('kafkaSettingsFromEnv', () => {
  it('defaults to the local broker, three partitions and no prefix', () => {
    expect(kafkaSettingsFromEnv({})).toMatchObject({ brokers: ['127.0.0.1:9092'], clientId: 'cairn', topicPrefix: '', partitions: 3, replicationFactor: -1 });
  });

  it('reads brokers as a comma-separated list and tuning as integers', () => {
    const settings = kafkaSettingsFromEnv({
      KAFKA_BOOTSTRAP_SERVER: 'k1:9092, k2:9092',
      KAFKA_CLIENT_ID: 'gms',
      KAFKA_TOPIC_PREFIX: 'prod_',
      KAFKA_TOPIC_PARTITIONS: '12',
      KAFKA_CONSUMER_SESSION_TIMEOUT_MS: '45000',
    });
    expect(settings).toMatchObject({ brokers: ['k1:9092', 'k2:9092'], clientId: 'gms', topicPrefix: 'prod_', partitions: 12 });
    expect(settings.consumer.sessionTimeoutMs).toBe(45_000);
  });

  it('rejects values that are not integers, and topics without partitions', () => {
    expect(() => kafkaSettingsFromEnv({ KAFKA_CONSUMER_MAX_WAIT_MS: 'soon' })).toThrow(/KAFKA_CONSUMER_MAX_WAIT_MS/);
    expect(() => kafkaSettingsFromEnv({ KAFKA_TOPIC_PARTITIONS: '0' })).toThrow(/at least 1/);
  });
});
