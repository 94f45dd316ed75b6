/** AspectStore on SQLite: the reference's aspect table, with versioning done in one transaction. */
import { sameAspectValue } from '@cairn/core';
import { alreadyApplied, type AspectStore, type AspectWrite, type StoredAspect, type UnitStore, type WriteOutcome } from '@cairn/ports';
import type { EmbeddedDb } from './database';
import { ASPECT_COLUMNS, KEY_ASPECTS_INDEX, KEY_ASPECTS_WHERE, LATEST_BY_ASPECT_INDEX, SqliteAspectReads, toStored, type AspectRow } from './sqlite-aspect-reads';

const TABLE_COLUMNS = `urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL,
  metadata TEXT NOT NULL, system_metadata TEXT, created_on INTEGER NOT NULL, created_by TEXT NOT NULL,
  proposal_id TEXT`;

/**
 * The aspect table keyed by rowid, rows in the order they were written, with its key (urn, aspect,
 * version) a unique index. Keyed by that key WITHOUT ROWID, as it was first, each write landed on a
 * random leaf of a tree whose leaves held two or three rows (a row of over about a kilobyte, most
 * schemas, took overflow pages besides): a commit rewrote a page or more for each aspect, where
 * rows appended now share their pages and only the small index entries land at random. A file of
 * the earlier layout is rewritten into this one when it opens, and loses the index of every latest
 * row by (aspect, urn) it had (see KEY_ASPECTS_INDEX).
 */
function createAspectTable(db: EmbeddedDb): void {
  const existing = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'metadata_aspect_v2'").pluck().get() as string | undefined;
  const keyedByRowid = `
    CREATE TABLE IF NOT EXISTS metadata_aspect_v2 (id INTEGER PRIMARY KEY, ${TABLE_COLUMNS});
    CREATE UNIQUE INDEX IF NOT EXISTS metadata_aspect_v2_key ON metadata_aspect_v2 (urn, aspect, version);
    CREATE INDEX IF NOT EXISTS ${KEY_ASPECTS_INDEX} ON metadata_aspect_v2 (aspect, urn) WHERE ${KEY_ASPECTS_WHERE};`;
  if (!existing || !/WITHOUT\s+ROWID/i.test(existing)) {
    db.transaction(() => {
      db.exec(`DROP INDEX IF EXISTS ${LATEST_BY_ASPECT_INDEX};`);
      db.exec(keyedByRowid);
    })();
    return;
  }
  db.transaction(() => {
    db.exec(`DROP INDEX IF EXISTS ${LATEST_BY_ASPECT_INDEX}; ALTER TABLE metadata_aspect_v2 RENAME TO metadata_aspect_v2_keyed;`);
    db.exec(keyedByRowid);
    db.exec(`INSERT INTO metadata_aspect_v2 (${ASPECT_COLUMNS}) SELECT ${ASPECT_COLUMNS} FROM metadata_aspect_v2_keyed; DROP TABLE metadata_aspect_v2_keyed;`);
  })();
}

/** The latest row a write just stored, from the write itself rather than its columns parsed back. */
function written(w: AspectWrite): StoredAspect {
  return { urn: w.urn, aspect: w.aspect, version: 0, metadata: w.metadata, systemMetadata: w.systemMetadata, createdOn: w.createdOn, createdBy: w.createdBy };
}

/** A write's columns; the version only for an insert. */
function rowOf(w: AspectWrite, version?: number) {
  return {
    version,
    urn: w.urn,
    aspect: w.aspect,
    metadata: w.metadata,
    system_metadata: JSON.stringify(w.systemMetadata),
    created_on: w.createdOn,
    created_by: w.createdBy,
    proposal_id: w.proposalId,
  };
}

export class SqliteAspectStore extends SqliteAspectReads implements AspectStore {
  private readonly stmts;
  private readonly writeTx;

  constructor(db: EmbeddedDb) {
    createAspectTable(db);
    super(db);
    this.stmts = {
      maxVersion: db.prepare('SELECT MAX(version) AS v FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ?'),
      insert: db.prepare(
        'INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, system_metadata, created_on, created_by, proposal_id) VALUES (@urn, @aspect, @version, @metadata, @system_metadata, @created_on, @created_by, @proposal_id)',
      ),
      insertIfAbsent: db.prepare(
        'INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, system_metadata, created_on, created_by, proposal_id) VALUES (@urn, @aspect, 0, @metadata, @system_metadata, @created_on, @created_by, @proposal_id) ON CONFLICT (urn, aspect, version) DO NOTHING',
      ),
      replaceLatest: db.prepare(
        'UPDATE metadata_aspect_v2 SET metadata = @metadata, system_metadata = @system_metadata, created_on = @created_on, created_by = @created_by, proposal_id = @proposal_id WHERE urn = @urn AND aspect = @aspect AND version = 0',
      ),
      touch: db.prepare('UPDATE metadata_aspect_v2 SET system_metadata = ?, proposal_id = ? WHERE urn = ? AND aspect = ? AND version = 0'),
      deleteAspect: db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ?'),
      deleteUrn: db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ?'),
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    this.writeTx = db.transaction((w: AspectWrite) => this.writeSync(w));
  }

  private writeSync(w: AspectWrite): WriteOutcome {
    const current = this.reads.latest.get(w.urn, w.aspect) as AspectRow | undefined;
    if (!current) {
      this.stmts.insert.run(rowOf(w, 0));
      return { kind: 'created', current: written(w) };
    }
    if (current.proposal_id !== null && alreadyApplied(current.proposal_id, w.proposalId)) {
      const max = (this.stmts.maxVersion.get(w.urn, w.aspect) as { v: number }).v;
      const previous = max > 0 ? (this.reads.version.get(w.urn, w.aspect, max) as AspectRow) : undefined;
      return { kind: 'replayed', current: toStored(current), ...(previous ? { previous: toStored(previous) } : {}) };
    }
    if (sameAspectValue(current.metadata, w.metadata)) {
      const sm = { ...(current.system_metadata ? JSON.parse(current.system_metadata) : {}), lastObserved: w.systemMetadata.lastObserved };
      this.stmts.touch.run(JSON.stringify(sm), w.proposalId, w.urn, w.aspect);
      return { kind: 'unchanged', current: toStored({ ...current, system_metadata: JSON.stringify(sm) }) };
    }
    const max = (this.stmts.maxVersion.get(w.urn, w.aspect) as { v: number }).v;
    this.stmts.insert.run({ ...current, version: max + 1 });
    this.stmts.replaceLatest.run(rowOf(w));
    return { kind: 'updated', current: written(w), previous: toStored(current) };
  }

  async write(write: AspectWrite): Promise<WriteOutcome> {
    return this.writeTx(write);
  }

  async createIfAbsent(write: AspectWrite): Promise<StoredAspect | undefined> {
    const row = rowOf(write);
    if (this.stmts.insertIfAbsent.run(row).changes === 1) return written(write);
    const stored = this.reads.latest.get(write.urn, write.aspect) as AspectRow | undefined;
    return stored?.proposal_id === write.proposalId ? toStored(stored) : undefined;
  }

  /** The aspect's latest value as stored, read in this turn: what the change logs' stored form reads back (change-log-form.ts). */
  latestMetadata(urn: string, aspect: string): string | undefined {
    return (this.reads.latest.get(urn, aspect) as AspectRow | undefined)?.metadata;
  }

  async deleteAspect(urn: string, aspect: string): Promise<{ latest?: StoredAspect; rows: number }> {
    return this.db.transaction(() => {
      const latest = this.reads.latest.get(urn, aspect) as AspectRow | undefined;
      const rows = this.stmts.deleteAspect.run(urn, aspect).changes;
      return { ...(latest ? { latest: toStored(latest) } : {}), rows };
    })();
  }

  async deleteEntity(urn: string): Promise<{ latest: StoredAspect[]; rows: number }> {
    return this.db.transaction(() => {
      const latest = (this.reads.latestOfUrn.all(urn) as AspectRow[]).map(toStored);
      const rows = this.stmts.deleteUrn.run(urn).changes;
      return { latest, rows };
    })();
  }

  /** One transaction around `work`; each write inside is a savepoint, so a failed one undoes only itself. */
  async unit<T>(work: (store: UnitStore) => Promise<T>): Promise<T> {
    if (this.db.inTransaction) return work(this);
    this.stmts.begin.run();
    try {
      const result = await work(this);
      this.stmts.commit.run();
      return result;
    } finally {
      if (this.db.inTransaction) this.stmts.rollback.run();
    }
  }

  async close(): Promise<void> {
    // The shared database is closed by its owner.
  }
}
