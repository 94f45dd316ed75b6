/**
 * A full rebuild of every index from the store (`/operations?action=rebuildIndices`): the indexes
 * are cleared, every latest aspect is re-emitted as a change log, and the indexers rebuild from
 * them. Timed until the search indexer has caught up and search finds every entity again.
 * Meanwhile a producer writes new datasets at a trickle, as live ingestion would: a rebuild should
 * leave room for them (none refused) and index them too.
 */
import type { CatalogClient } from '../client/catalog-client';
import { consumerLag, type Deployment, type PhaseLoad } from '../deployments/deployment';
import { now, round, Samples, sleep } from '../stats';

export interface RestoreResult extends PhaseLoad {
  readonly aspects: number;
  readonly seconds: number;
  readonly aspectsPerSecond: number;
  /** Entities search finds once the rebuild is done (all of them, unless the deadline passed). */
  readonly searchableAfter: number;
  /** The catalog's CPU time per aspect (µs), added by the runner. */
  serverCpuUsPerAspect?: number;
  readonly writesDuring: WritesDuringRebuild;
}

export interface WritesDuringRebuild {
  readonly perSecond: number;
  readonly acknowledged: number;
  /** Answered 429: the rebuild left no room. */
  readonly refused: number;
  readonly otherErrors: number;
  readonly firstError?: string;
  readonly latencyMs: Record<string, number | undefined>;
}

/** The trickle of writes during the rebuild: small beside the rebuild's work, so its rate stays comparable. */
const WRITES_PER_SECOND = 20;

/** Writes a new dataset every 1/WRITES_PER_SECOND s until `done` says stop. */
async function writeWhile(client: CatalogClient, done: () => boolean): Promise<WritesDuringRebuild> {
  const latency = new Samples();
  let refused = 0;
  let otherErrors = 0;
  let firstError: string | undefined;
  for (let i = 0; !done(); i++) {
    const t0 = now();
    try {
      const reply = await client.ingestProposal({
        entityType: 'dataset',
        entityUrn: `urn:li:dataset:(urn:li:dataPlatform:bench,during_rebuild.d${i},PROD)`,
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: JSON.stringify({ removed: false }), contentType: 'application/json' },
      });
      if (reply.status === 200) latency.add(now() - t0);
      else if (reply.status === 429) refused++;
      else {
        otherErrors++;
        firstError ??= `HTTP ${reply.status}: ${reply.body.slice(0, 300)}`;
      }
    } catch (err) {
      otherErrors++;
      firstError ??= (err as Error).message;
    }
    await sleep(Math.max(0, 1000 / WRITES_PER_SECOND - (now() - t0)));
  }
  return { perSecond: WRITES_PER_SECOND, acknowledged: latency.count, refused, otherErrors, ...(firstError ? { firstError } : {}), latencyMs: latency.summary([50, 99]) };
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
  const writing = writeWhile(client, () => status?.completed === true || now() >= deadline);
  while (now() < deadline) {
    const { value } = await client.http.json<{ value: string }>('POST', '/operations?action=getEsTaskStatus', { task });
    status = JSON.parse(value) as TaskStatus;
    if (status.completed) break;
    await sleep(100);
  }
  const writesDuring = await writing;
  if (!status?.completed) throw new Error(`the rebuild did not finish in ${timeoutMs} ms`);
  if (status.status.error) throw new Error(`the rebuild failed: ${status.status.error}`);
  let searchable = 0;
  while (now() < deadline) {
    if (((await consumerLag(deployment))['mae-consumer'] ?? 0) === 0 && (searchable = await client.searchableCount()) >= expectedEntities + writesDuring.acknowledged) break;
    await sleep(50);
  }
  const seconds = (now() - started) / 1000;
  const aspects = status.status.restored ?? 0;
  return { aspects, seconds: round(seconds)!, aspectsPerSecond: round(aspects / seconds, 0)!, searchableAfter: searchable, writesDuring };
}
