export * from './urn';
export * from './errors';
export * from './restli';
export * from './model';
export { readSnapshot, SnapshotError, type ReadSnapshot, type SnapshotAspect } from './model/snapshot';
export * from './aspect-values';
export * from './json-patch';
export { valuesAtPath } from './model/paths';
export * from './log';
