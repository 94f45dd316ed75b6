export { kafkaConnection, KafkaConnection, type KafkaConnectionOptions } from './kafka-connection';
export { groupProgress, kafkaGroupId, KafkaEventLog, type KafkaEventLogOptions } from './kafka-event-log';
export { KafkaGroupConsumer } from './group-consumer';
export { kafkaSettingsFromEnv, type ConsumerTuning, type KafkaEnv, type KafkaSettings } from './kafka-settings';
export { avroValueCodec, jsonValueCodec, isEventTopic, type EventTopic, type EventValue, type ValueCodec } from './value-codecs';
export type { OnUndecodable, UndecodableRecord } from './kafka-records';
export { quietIdleRequestQueues } from './idle-request-queues';
export { sendableParts } from './sendable-parts';
