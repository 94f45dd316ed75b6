export * from './context';
export { createRestApp, mountRestApi, errorHandler, notFoundHandler, GMS_PREFIX } from './app';
