/** The catalog's aspects as the rows a store holds, for writing them straight to a backend. */
import type { SyntheticCatalog } from '../generator/catalog';
import { BASE_TIME } from '../generator/proposal';

export interface AspectRow {
  readonly urn: string;
  readonly aspect: string;
  readonly metadata: string;
  readonly systemMetadata: string;
}

/** Up to `limit` rows, in batches of `size`. */
export function* rowBatches(catalog: SyntheticCatalog, limit: number, size: number): Generator<AspectRow[]> {
  let batch: AspectRow[] = [];
  let count = 0;
  for (const p of catalog.proposals()) {
    if (count++ >= limit) break;
    batch.push({ urn: p.entityUrn!, aspect: p.aspectName!, metadata: p.aspect!.value, systemMetadata: JSON.stringify(p.systemMetadata ?? { lastObserved: BASE_TIME }) });
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export interface RawResult {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
}
