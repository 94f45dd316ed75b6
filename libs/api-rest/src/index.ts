export * from './context';
export { createRestApp, mountRestApi, errorHandler, notFoundHandler, GMS_PREFIX } from './app';
export { directRoutes, type DirectHandler, type RequestTimer } from './direct-routes';
export { admittingBodies, BodyAdmission, type BodyAdmissionLimits } from './body-admission';
export { schemaRegistryRouter, SCHEMA_REGISTRY_PREFIX } from './schema-registry';
export * from './auth';
