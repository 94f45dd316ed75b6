/**
 * Prepared statements by SQL text, for queries whose text varies with their input (the length of an
 * IN list, a filter's shape): preparing costs more than running a small query, and autocomplete
 * runs one per entity type.
 */
import type { Statement } from 'better-sqlite3';
import type { EmbeddedDb } from '../database';

const CAPACITY = 256;

export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: EmbeddedDb) {}

  get(sql: string): Statement {
    const known = this.statements.get(sql);
    if (known) return known;
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > CAPACITY) this.statements.delete(this.statements.keys().next().value as string);
    return statement;
  }
}
