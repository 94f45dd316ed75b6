/**
 * Per-request batching: every aspect read of one tick becomes one store call, so a list of N
 * entities costs one `getLatest` for all of them rather than N×M reads.
 */
import DataLoader from 'dataloader';
import type { AspectReader } from '@cairn/ports';

/** Latest aspect values of one entity by aspect name; empty when the entity does not exist. */
export type AspectMap = ReadonlyMap<string, unknown>;

export interface Loaders {
  readonly aspects: DataLoader<string, AspectMap>;
}

/** `store`: the request's view (secret aspects its actor may not read are absent). */
export function createLoaders(store: AspectReader): Loaders {
  return {
    aspects: new DataLoader<string, AspectMap>(async (urns) => {
      const rows = await store.getLatest(urns);
      const byUrn = new Map<string, Map<string, unknown>>(urns.map((u) => [u, new Map()]));
      for (const row of rows) byUrn.get(row.urn)?.set(row.aspect, JSON.parse(row.metadata));
      return urns.map((u) => byUrn.get(u) ?? new Map());
    }),
  };
}
