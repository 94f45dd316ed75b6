export * from './types';
export { loadModel, deref, defaultModelDir, ModelError, type LoadedModel } from './load-model';
export { validateValue, type ValidationResult } from './validate';
export { fromAvroJson, toPegasusName, toAvroName } from './avro-json';
export { Registry, defaultRegistry } from './registry';
export { readModelDocs, parsedCacheFile } from './model-docs';
