export * from './logs';
export * from './proposal-check';
export * from './write-notifier';
export * from './ingest';
export * from './snapshot-proposals';
export * from './persist';
export * from './project';
export * from './proposal-results';
