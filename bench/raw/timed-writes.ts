/** Writes row batches with a writer until the rows or the time run out; the rate counts write time only. */
import type { SyntheticCatalog } from '../generator/catalog';
import { now, round } from '../stats';
import { rowBatches, type AspectRow, type RawResult } from './aspect-rows';

export async function timedWrites(catalog: SyntheticCatalog, limit: number, seconds: number, batchSize: number, write: (rows: AspectRow[]) => Promise<void> | void): Promise<RawResult> {
  let rows = 0;
  let writingMs = 0;
  const deadline = now() + seconds * 1000;
  for (const batch of rowBatches(catalog, limit, batchSize)) {
    if (now() > deadline) break;
    const t0 = now();
    await write(batch);
    writingMs += now() - t0;
    rows += batch.length;
  }
  return { rows, seconds: round(writingMs / 1000)!, rowsPerSecond: round(rows / (writingMs / 1000), 0)! };
}
