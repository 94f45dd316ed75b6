/** SearchIndex on SQLite: one JSON document per entity, fields merged per aspect. */
import type { SearchFields, SearchIndex } from '@cairn/ports';
import type { EmbeddedDb } from './database';

export class SqliteSearchIndex implements SearchIndex {
  private readonly stmts;
  private readonly upsertTx;

  constructor(private readonly db: EmbeddedDb) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS search_documents (
        entity_type TEXT NOT NULL, urn TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (entity_type, urn)) WITHOUT ROWID;
    `);
    this.stmts = {
      get: db.prepare('SELECT doc FROM search_documents WHERE entity_type = ? AND urn = ?'),
      put: db.prepare('INSERT INTO search_documents (entity_type, urn, doc) VALUES (?, ?, ?) ON CONFLICT (entity_type, urn) DO UPDATE SET doc = excluded.doc'),
      delete: db.prepare('DELETE FROM search_documents WHERE entity_type = ? AND urn = ?'),
      count: db.prepare('SELECT COUNT(*) AS n FROM search_documents'),
      countType: db.prepare('SELECT COUNT(*) AS n FROM search_documents WHERE entity_type = ?'),
    };
    this.upsertTx = db.transaction((entityType: string, urn: string, fields: SearchFields) => {
      const row = this.stmts.get.get(entityType, urn) as { doc: string } | undefined;
      const doc: SearchFields = row ? JSON.parse(row.doc) : { urn };
      for (const [k, v] of Object.entries(fields)) {
        if (v === null || v === undefined) delete doc[k];
        else doc[k] = v;
      }
      this.stmts.put.run(entityType, urn, JSON.stringify(doc));
    });
  }

  async upsertFields(entityType: string, urn: string, fields: SearchFields): Promise<void> {
    this.upsertTx(entityType, urn, fields);
  }

  async deleteDocument(entityType: string, urn: string): Promise<void> {
    this.stmts.delete.run(entityType, urn);
  }

  async getDocument(entityType: string, urn: string): Promise<SearchFields | undefined> {
    const row = this.stmts.get.get(entityType, urn) as { doc: string } | undefined;
    return row && (JSON.parse(row.doc) as SearchFields);
  }

  async clear(): Promise<void> {
    this.db.exec('DELETE FROM search_documents');
  }

  async count(entityType?: string): Promise<number> {
    const row = (entityType ? this.stmts.countType.get(entityType) : this.stmts.count.get()) as { n: number };
    return row.n;
  }
}
