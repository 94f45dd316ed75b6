/**
 * The graph's names (URNs, aspect names, relationship types) as integers: an edge is then four
 * small integers rather than four strings of up to a few hundred bytes.
 */
import type { EmbeddedDb } from './database';

/**
 * Committed ids kept in memory: the model's aspect names and relationship types and the most used
 * destinations (tags, terms, owners, platforms) are in nearly every batch. Past the bound the map
 * starts again rather than tracking recency: refilling it costs a lookup each.
 */
const CACHED_IDS = 8192;

export class GraphNames {
  private readonly cached = new Map<string, number>();
  /** Ids read or made by the open write transaction, cached once it commits. */
  private readonly uncommitted = new Map<string, number>();
  private readonly stmts;

  constructor(private readonly db: EmbeddedDb) {
    db.exec('CREATE TABLE IF NOT EXISTS graph_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
    this.stmts = {
      select: db.prepare('SELECT id FROM graph_names WHERE name = ?').pluck(),
      insert: db.prepare('INSERT INTO graph_names (name) VALUES (?)'),
    };
  }

  /** The name's id, made when it has none; only inside `write`. */
  idOf(name: string): number {
    return this.known(name) ?? this.make(name);
  }

  /** The name's id, or undefined when nothing names it; only inside `write`. */
  known(name: string): number | undefined {
    const id = this.cached.get(name) ?? this.uncommitted.get(name);
    if (id !== undefined) return id;
    const found = this.stmts.select.get(name) as number | undefined;
    if (found !== undefined) this.uncommitted.set(name, found);
    return found;
  }

  /**
   * Runs `work` in a transaction whose ids reach the cache only if it commits: a rolled-back
   * transaction's ids name nothing, and a transaction nested in another might still roll back.
   */
  write<T>(work: () => T): T {
    const nested = this.db.inTransaction;
    try {
      const result = this.db.transaction(work)();
      if (!nested) this.commit();
      return result;
    } finally {
      this.uncommitted.clear();
    }
  }

  /** Every name is gone (the edges that used them too). */
  forgetAll(): void {
    this.db.exec('DELETE FROM graph_names');
    this.cached.clear();
  }

  private make(name: string): number {
    const id = Number(this.stmts.insert.run(name).lastInsertRowid);
    this.uncommitted.set(name, id);
    return id;
  }

  private commit(): void {
    if (this.cached.size + this.uncommitted.size > CACHED_IDS) this.cached.clear();
    for (const [name, id] of this.uncommitted) {
      if (this.cached.size === CACHED_IDS) return;
      this.cached.set(name, id);
    }
  }
}
