/**
 * Far more clients than the machine can serve, most of them asynchronous (nothing slows them but
 * the server): backpressure must answer 429 with Retry-After rather than let the backlog and the
 * memory grow, no request may wait forever, and every acknowledged write must be there afterwards.
 */
import type { CatalogClient } from '../client/catalog-client';
import type { HttpReply } from '../client/http-client';
import { consumerLag, type Deployment } from '../deployments/deployment';
import type { SyntheticCatalog } from '../generator/catalog';
import { now, round, Samples, sleep } from '../stats';
import { ProposalFeed } from './proposal-feed';

export interface OverloadOptions {
  readonly clients: number;
  readonly seconds: number;
  /** How long to wait for the backlog to drain before checking the acknowledged writes. */
  readonly drainTimeoutMs: number;
}

export interface OverloadResult {
  readonly clients: number;
  readonly seconds: number;
  readonly acknowledged: number;
  readonly acknowledgedPerSecond: number;
  readonly tooManyRequests: number;
  readonly timedOut504: number;
  readonly otherErrors: number;
  readonly firstError?: string;
  readonly latencyMs: Record<string, number | undefined>;
  readonly maxLag: number;
  readonly peakRssMb: number;
  readonly drainedAfterMs?: number;
  /** Acknowledged (or 504: queued) writes not found afterwards: must be 0. */
  readonly missing: number;
  readonly checked: number;
}

const MAX_ATTEMPTS = 10;
const OVERLOAD_BATCH = 50;
const CHECK_BATCH = 50;

export async function runOverload(deployment: Deployment, client: CatalogClient, catalog: SyntheticCatalog, options: OverloadOptions): Promise<OverloadResult> {
  const feed = new ProposalFeed(catalog);
  const latency = new Samples();
  const acknowledged = new Map<string, Set<string>>();
  let acked = 0;
  let tooMany = 0;
  let timedOut = 0;
  let otherErrors = 0;
  let firstError: string | undefined;
  let maxLag = 0;
  let peakRssMb = 0;
  const started = now();
  const deadline = started + options.seconds * 1000;

  const sampling = (async () => {
    while (now() < deadline) {
      peakRssMb = Math.max(peakRssMb, deployment.memory().rssMb);
      try {
        maxLag = Math.max(maxLag, ...Object.values(await consumerLag(deployment)));
      } catch {
        // a scrape that fails under overload is skipped
      }
      await sleep(250);
    }
  })();

  // A third of the clients write synchronously, a third asynchronously, a third in asynchronous batches.
  const worker = async (w: number) => {
    const async = w % 3 !== 0;
    const size = w % 3 === 2 ? OVERLOAD_BATCH : 1;
    while (now() < deadline) {
      const items = feed.take(size);
      if (items.length === 0) return;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS && now() < deadline; attempt++) {
        const t0 = now();
        let reply: HttpReply;
        try {
          reply = size === 1 ? await client.ingestProposal(items[0]!.proposal, async) : await client.ingestProposalBatch(items.map((i) => i.proposal), async);
        } catch (err) {
          otherErrors++;
          firstError ??= (err as Error).message;
          break;
        }
        latency.add(now() - t0);
        if (reply.status === 429) {
          tooMany++;
          await sleep(Math.min(5, reply.retryAfterSeconds ?? 1) * 1000);
          continue;
        }
        if (reply.status === 200 || reply.status === 504) {
          // 504: queued, not yet applied in time; it must be applied all the same.
          if (reply.status === 200) acked += items.length;
          else timedOut += items.length;
          for (const { proposal } of items) {
            const urn = proposal.entityUrn!;
            if (!acknowledged.has(urn)) acknowledged.set(urn, new Set());
            acknowledged.get(urn)!.add(proposal.aspectName!);
          }
        } else {
          otherErrors++;
          firstError ??= `HTTP ${reply.status}: ${reply.body.slice(0, 300)}`;
        }
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, w) => worker(w)));
  await sampling;
  const sendSeconds = (now() - started) / 1000;

  const drainStart = now();
  let drainedAfterMs: number | undefined;
  while (now() - drainStart < options.drainTimeoutMs) {
    const lags = Object.values(await consumerLag(deployment));
    if (lags.length && Math.max(...lags) === 0) {
      drainedAfterMs = now() - drainStart;
      break;
    }
    await sleep(250);
  }
  const { missing, checked } = await checkAcknowledged(client, acknowledged);
  return {
    clients: options.clients,
    seconds: round(sendSeconds)!,
    acknowledged: acked,
    acknowledgedPerSecond: round(acked / sendSeconds, 0)!,
    tooManyRequests: tooMany,
    timedOut504: timedOut,
    otherErrors,
    ...(firstError ? { firstError } : {}),
    latencyMs: latency.summary([50, 99]),
    maxLag,
    peakRssMb: round(peakRssMb, 0)!,
    ...(drainedAfterMs !== undefined ? { drainedAfterMs: round(drainedAfterMs, 0) } : {}),
    missing,
    checked,
  };
}

/** Reads every acknowledged entity back and counts acknowledged aspects it lacks. */
async function checkAcknowledged(client: CatalogClient, acknowledged: Map<string, Set<string>>): Promise<{ missing: number; checked: number }> {
  const urns = [...acknowledged.keys()];
  let missing = 0;
  let checked = 0;
  for (let i = 0; i < urns.length; i += CHECK_BATCH) {
    const chunk = urns.slice(i, i + CHECK_BATCH);
    const reply = await client.getEntities(chunk);
    const body = JSON.parse(reply.body) as { results: Record<string, { aspects: Record<string, unknown> }> };
    for (const urn of chunk) {
      for (const aspect of acknowledged.get(urn)!) {
        checked++;
        if (!body.results[urn]?.aspects[aspect]) missing++;
      }
    }
  }
  return { missing, checked };
}
