/** The search query contract against the embedded (SQLite) search index. */
import { openDatabase, SqliteSearchIndex } from '@cairn/adapter-embedded';
import { describeSearchQueriesContract } from './search-queries.contract';

describeSearchQueriesContract('SQLite', async (mappings) => {
  const db = openDatabase(':memory:');
  return { index: new SqliteSearchIndex(db, mappings), close: async () => void db.close() };
});
