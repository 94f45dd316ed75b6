/** A schema registry holding the value schemas of the event topics, as the reference's setup registers them. */
import { TOPIC_EVENTS, valueSubject } from '../topics';
import { eventSchemas, type EventSchemas } from './event-schemas';
import { SchemaRegistryCore } from './schema-registry';

export function createEventSchemaRegistry(schemas: EventSchemas = eventSchemas()): SchemaRegistryCore {
  const registry = new SchemaRegistryCore();
  for (const [topic, kind] of Object.entries(TOPIC_EVENTS)) {
    registry.register(valueSubject(topic), schemas[kind].schema({ exportAttrs: true }));
  }
  return registry;
}
