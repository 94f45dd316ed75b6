/**
 * `entitiesV2` reads of random catalog entities: single gets (every aspect) and batch gets of ten;
 * and the floor of the machine's HTTP path at the same concurrency: `GET /config`, which does no work
 * beyond answering, so a get's tail can be told apart from the tail every request has here.
 */
import type { CatalogClient } from '../client/catalog-client';
import type { PhaseLoad } from '../deployments/deployment';
import type { SyntheticCatalog } from '../generator/catalog';
import { Random } from '../generator/random';
import { closedLoop, type LoopBounds, type LoopResult } from './closed-loop';

const BATCH = 10;

export function randomUrn(catalog: SyntheticCatalog, random: Random): string {
  const { kind, index } = catalog.shape.nth(random.int(0, catalog.shape.total - 1));
  return catalog.shape.urn(kind, index);
}

/** Its load (`PhaseLoad`) is over all three kinds of reads, their warm-up requests included. */
export interface ReadsResult extends PhaseLoad {
  readonly single: LoopResult;
  readonly batch: LoopResult;
  readonly httpFloor: LoopResult;
}

export async function runReads(client: CatalogClient, catalog: SyntheticCatalog, bounds: LoopBounds): Promise<ReadsResult> {
  const random = new Random(catalog.options.seed + 1);
  const single = await closedLoop(bounds, () => client.getEntity(randomUrn(catalog, random)));
  const batch = await closedLoop(bounds, () =>
    client.getEntities(Array.from({ length: BATCH }, () => randomUrn(catalog, random))),
  );
  const httpFloor = await closedLoop(bounds, () => client.config());
  return { single, batch, httpFloor };
}
