export * from './context';
export { createRestApp, mountRestApi, errorHandler, notFoundHandler, GMS_PREFIX } from './app';
export { schemaRegistryRouter, SCHEMA_REGISTRY_PREFIX } from './schema-registry';
export * from './auth';
