/**
 * The embedded engine without cairn: the aspect rows straight into SQLite, opened as the service
 * opens it, with its aspect table's layout, a transaction per batch.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@cairn/adapter-embedded';
import type { SyntheticCatalog } from '../generator/catalog';
import { BASE_TIME } from '../generator/proposal';
import type { AspectRow, RawResult } from './aspect-rows';
import { timedWrites } from './timed-writes';

export async function rawSqlite(catalog: SyntheticCatalog, limit: number, seconds: number, batchSize = 500): Promise<RawResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-raw-'));
  const db = openDatabase(join(dir, 'raw.db'));
  try {
    db.exec(`CREATE TABLE metadata_aspect_v2 (
      id INTEGER PRIMARY KEY, urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL, metadata TEXT NOT NULL, system_metadata TEXT,
      created_on INTEGER NOT NULL, created_by TEXT NOT NULL);
      CREATE UNIQUE INDEX metadata_aspect_v2_key ON metadata_aspect_v2 (urn, aspect, version)`);
    const upsert = db.prepare(
      `INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, system_metadata, created_on, created_by) VALUES (?, ?, 0, ?, ?, ?, 'urn:li:corpuser:datahub')
       ON CONFLICT (urn, aspect, version) DO UPDATE SET metadata = excluded.metadata, system_metadata = excluded.system_metadata`,
    );
    const write = db.transaction((rows: AspectRow[]) => {
      for (const r of rows) upsert.run(r.urn, r.aspect, r.metadata, r.systemMetadata, BASE_TIME);
    });
    return await timedWrites(catalog, limit, seconds, batchSize, write);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
