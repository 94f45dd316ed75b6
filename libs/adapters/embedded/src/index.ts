export { openDatabase, type EmbeddedDb, type DatabaseOptions } from './database';
export { startCheckpointer, type Checkpointer } from './checkpointer';
export { nameThread, THREAD_NAMES } from './thread-name';
export { SqliteEventLog, topicTable } from './sqlite-event-log';
export { SqliteAspectStore } from './sqlite-aspect-store';
export { SqliteSearchIndex } from './sqlite-search-index';
export { SqliteGraphIndex } from './sqlite-graph-index';
export { SqliteTimeseriesIndex } from './sqlite-timeseries-index';
