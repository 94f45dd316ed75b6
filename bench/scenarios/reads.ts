/** `entitiesV2` reads of random catalog entities: single gets (every aspect) and batch gets of ten. */
import type { CatalogClient } from '../client/catalog-client';
import type { SyntheticCatalog } from '../generator/catalog';
import { Random } from '../generator/random';
import { closedLoop, type LoopBounds, type LoopResult } from './closed-loop';

const BATCH = 10;

export function randomUrn(catalog: SyntheticCatalog, random: Random): string {
  const { kind, index } = catalog.shape.nth(random.int(0, catalog.shape.total - 1));
  return catalog.shape.urn(kind, index);
}

export async function runReads(client: CatalogClient, catalog: SyntheticCatalog, bounds: LoopBounds): Promise<{ single: LoopResult; batch: LoopResult }> {
  const random = new Random(catalog.options.seed + 1);
  const single = await closedLoop(bounds, () => client.getEntity(randomUrn(catalog, random)));
  const batch = await closedLoop(bounds, () =>
    client.getEntities(Array.from({ length: BATCH }, () => randomUrn(catalog, random))),
  );
  return { single, batch };
}
