/**
 * The reads of the SQLite aspect table, on any connection to the file: the store's own, or a
 * read-only one of a thread that reads the store while another writes it (the embedded catalog's
 * API thread).
 */
import type { SystemMetadata } from '@cairn/events';
import type { AspectReads, AspectScan, StoredAspect } from '@cairn/ports';
import type { EmbeddedDb } from './database';

export interface AspectRow {
  urn: string;
  aspect: string;
  version: number;
  metadata: string;
  system_metadata: string | null;
  created_on: number;
  created_by: string;
  proposal_id: string | null;
}

export function toStored(row: AspectRow): StoredAspect {
  return {
    urn: row.urn,
    aspect: row.aspect,
    version: row.version,
    metadata: row.metadata,
    ...(row.system_metadata ? { systemMetadata: JSON.parse(row.system_metadata) as SystemMetadata } : {}),
    createdOn: row.created_on,
    createdBy: row.created_by,
  };
}

/** Escapes GLOB's special characters so the text matches itself. */
function globLiteral(text: string): string {
  return text.replace(/[*?[]/g, (c) => `[${c}]`);
}

/** SQL LIKE (`%`, `_`, backslash escapes) as a GLOB pattern. */
function likeToGlob(like: string): string {
  let out = '';
  for (let i = 0; i < like.length; i++) {
    const c = like[i];
    if (c === '\\' && i + 1 < like.length) out += globLiteral(like[++i]);
    else if (c === '%') out += '*';
    else if (c === '_') out += '?';
    else out += globLiteral(c);
  }
  return out;
}

/**
 * The suffix of every key aspect's name, and of no other's (`datasetKey`, `corpUserKey`; the model's
 * tests hold it to that). Only speed rests on it: a scan of a key aspect named otherwise reads the
 * key index, and another aspect so named is indexed for nothing.
 */
const KEY_ASPECT_SUFFIX = 'Key';

/**
 * The latest rows of key aspects by (aspect, urn): the listing of an entity type's URNs and its
 * count read it. An index of every latest row by (aspect, urn), as the file had, put each write's
 * entry on a random leaf: a third of the pages an ingest's commits wrote, where key aspects are
 * written once an entity (docs/performance-log.md, the thirty-third session). Scans of another
 * aspect alone read the key index.
 */
export const KEY_ASPECTS_INDEX = 'metadata_aspect_v2_key_aspects';
/** Its rows; a query names both terms to be answered from it. */
export const KEY_ASPECTS_WHERE = `version = 0 AND aspect GLOB '*${KEY_ASPECT_SUFFIX}'`;
/** The index it replaces, dropped when a file of the earlier layout opens. */
export const LATEST_BY_ASPECT_INDEX = 'metadata_aspect_v2_latest';

/** A row's columns, without the rowid that orders the table. */
export const ASPECT_COLUMNS = 'urn, aspect, version, metadata, system_metadata, created_on, created_by, proposal_id';

export class SqliteAspectReads implements AspectReads {
  protected readonly reads;

  /** `db` holds the aspect table already (its writer made it). */
  constructor(protected readonly db: EmbeddedDb) {
    this.reads = {
      latest: db.prepare(`SELECT ${ASPECT_COLUMNS} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = 0`),
      latestOfUrn: db.prepare(`SELECT ${ASPECT_COLUMNS} FROM metadata_aspect_v2 WHERE urn = ? AND version = 0 ORDER BY aspect`),
      version: db.prepare(`SELECT ${ASPECT_COLUMNS} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = ?`),
      exists: db.prepare('SELECT 1 FROM metadata_aspect_v2 WHERE urn = ? LIMIT 1'),
    };
  }

  async getLatest(urns: readonly string[], aspects?: readonly string[]): Promise<StoredAspect[]> {
    const out: StoredAspect[] = [];
    for (const urn of urns) {
      if (aspects) {
        for (const aspect of aspects) {
          const row = this.reads.latest.get(urn, aspect) as AspectRow | undefined;
          if (row) out.push(toStored(row));
        }
      } else {
        for (const row of this.reads.latestOfUrn.all(urn) as AspectRow[]) out.push(toStored(row));
      }
    }
    return out;
  }

  async getVersion(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    const row = this.reads.version.get(urn, aspect, version) as AspectRow | undefined;
    return row && toStored(row);
  }

  async exists(urn: string): Promise<boolean> {
    return this.reads.exists.get(urn) !== undefined;
  }

  private scanWhere(scan: Omit<AspectScan, 'start' | 'limit'>): { sql: string; params: unknown[] } {
    const onKeyAspect = scan.aspect?.endsWith(KEY_ASPECT_SUFFIX) === true && !scan.urn;
    const clauses = [onKeyAspect ? KEY_ASPECTS_WHERE : 'version = 0'];
    const params: unknown[] = [];
    const add = (clause: string, param: unknown) => {
      clauses.push(clause);
      params.push(param);
    };
    if (scan.urn) add('urn = ?', scan.urn);
    if (scan.aspect) add('aspect = ?', scan.aspect);
    // GLOB, not LIKE: URNs are case-sensitive (SQLite's LIKE folds ASCII case).
    if (scan.urnLike) add('urn GLOB ?', likeToGlob(scan.urnLike));
    if (scan.entityType) add('urn GLOB ?', `${globLiteral(`urn:li:${scan.entityType}:`)}*`);
    if (scan.after) {
      clauses.push('(urn, aspect) > (?, ?)');
      params.push(scan.after.urn, scan.after.aspect);
    }
    return { sql: clauses.join(' AND '), params };
  }

  async scanLatest(scan: AspectScan): Promise<StoredAspect[]> {
    const { sql, params } = this.scanWhere(scan);
    const rows = this.db.prepare(`SELECT ${ASPECT_COLUMNS} FROM metadata_aspect_v2 WHERE ${sql} ORDER BY urn, aspect LIMIT ? OFFSET ?`).all(...params, scan.limit, scan.start) as AspectRow[];
    return rows.map(toStored);
  }

  async countLatest(scan: Omit<AspectScan, 'start' | 'limit'>): Promise<number> {
    const { sql, params } = this.scanWhere(scan);
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM metadata_aspect_v2 WHERE ${sql}`).get(...params) as { n: number }).n;
  }

  /** Pages by (urn, aspect) position along the primary key: each page starts where the last ended. */
  async *latestInBatches(batchSize: number): AsyncIterable<StoredAspect[]> {
    for (let after: AspectScan['after']; ; ) {
      const rows = await this.scanLatest({ ...(after ? { after } : {}), start: 0, limit: batchSize });
      if (rows.length) yield rows;
      if (rows.length < batchSize) return;
      const last = rows[rows.length - 1]!;
      after = { urn: last.urn, aspect: last.aspect };
    }
  }
}
