/**
 * A full rebuild of every index from the store (`/operations?action=rebuildIndices`): the indexes
 * are cleared, every latest aspect is re-emitted as a change log, and the indexers rebuild from
 * them. Timed until the search indexer has caught up and search finds every entity again.
 */
import type { CatalogClient } from '../client/catalog-client';
import { consumerLag, type Deployment } from '../deployments/deployment';
import { now, round, sleep } from '../stats';

export interface RestoreResult {
  readonly aspects: number;
  readonly seconds: number;
  readonly aspectsPerSecond: number;
  /** Entities search finds once the rebuild is done (all of them, unless the deadline passed). */
  readonly searchableAfter: number;
  /** The catalog's CPU time per aspect (µs), added by the runner. */
  serverCpuUsPerAspect?: number;
}

interface TaskStatus {
  readonly completed: boolean;
  readonly status: { restored?: number; error?: string };
}

export async function runRestore(client: CatalogClient, deployment: Deployment, expectedEntities: number, timeoutMs: number): Promise<RestoreResult> {
  const started = now();
  const deadline = started + timeoutMs;
  const { value: task } = await client.http.json<{ value: string }>('POST', '/operations?action=rebuildIndices', {});
  let status: TaskStatus | undefined;
  while (now() < deadline) {
    const { value } = await client.http.json<{ value: string }>('POST', '/operations?action=getEsTaskStatus', { task });
    status = JSON.parse(value) as TaskStatus;
    if (status.completed) break;
    await sleep(100);
  }
  if (!status?.completed) throw new Error(`the rebuild did not finish in ${timeoutMs} ms`);
  if (status.status.error) throw new Error(`the rebuild failed: ${status.status.error}`);
  let searchable = 0;
  while (now() < deadline) {
    if (((await consumerLag(deployment))['mae-consumer'] ?? 0) === 0 && (searchable = await client.searchableCount()) >= expectedEntities) break;
    await sleep(50);
  }
  const seconds = (now() - started) / 1000;
  const aspects = status.status.restored ?? 0;
  return { aspects, seconds: round(seconds)!, aspectsPerSecond: round(aspects / seconds, 0)!, searchableAfter: searchable };
}
