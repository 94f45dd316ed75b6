export { openDatabase, type EmbeddedDb, type DatabaseOptions } from './database';
export { startCheckpointer, type Checkpointer } from './checkpointer';
export { nameThread, THREAD_NAMES } from './thread-name';
export { SqliteEventLog, topicTable, type StoredForm } from './sqlite-event-log';
export { changeLogsBesideAspects } from './change-log-form';
export { SqliteAspectStore } from './sqlite-aspect-store';
export { SqliteSearchIndex } from './sqlite-search-index';
export { SqliteGraphIndex } from './sqlite-graph-index';
export { SqliteTimeseriesIndex } from './sqlite-timeseries-index';
