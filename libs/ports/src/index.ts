export * from './event-log';
export * from './aspect-store';
export * from './proposal-mark';
export * from './indexes';
export * from './search-query';
export * from './system-metadata-index';
