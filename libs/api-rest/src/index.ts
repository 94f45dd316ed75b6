export * from './context';
export { createRestApp, mountRestApi, errorHandler, notFoundHandler, GMS_PREFIX } from './app';
export { directIngest, DIRECT_INGEST_ROUTE, type DirectHandler, type RequestTimer } from './direct-ingest';
export { schemaRegistryRouter, SCHEMA_REGISTRY_PREFIX } from './schema-registry';
export * from './auth';
