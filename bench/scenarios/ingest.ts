/**
 * Ingest through the REST API: `clients` concurrent clients, each sending one proposal per
 * request (`ingestProposal`, as the reference's REST sink does), a batch of proposals
 * (`ingestProposalBatch`) or the snapshots of several entities (`batchIngest`), retrying 429
 * after its Retry-After as the reference's clients do. Stops when the feed is empty or after
 * `maxSeconds`; then waits until everything sent is searchable.
 */
import type { Registry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogClient } from '../client/catalog-client';
import type { HttpReply } from '../client/http-client';
import { snapshotsOf } from '../client/snapshots';
import { now, round, Samples, sleep } from '../stats';
import { IndexLagProbe, untilSearchable } from './index-lag-probe';
import type { ProposalSpool, SpooledProposal } from './proposal-spool';
import type { PhaseLoad } from '../deployments/deployment';

/** What one request carries. */
export type IngestRequest =
  | { readonly action: 'ingestProposal' }
  | { readonly action: 'ingestProposalBatch'; readonly proposals: number }
  | { readonly action: 'batchIngest'; readonly entities: number; readonly registry: Registry };

export interface IngestOptions {
  readonly clients: number;
  readonly request: IngestRequest;
  readonly async?: boolean;
  readonly maxSeconds: number;
  /** Entities search should find once everything sent is indexed. */
  readonly expectSearchable: (entitiesSent: number) => number;
  readonly searchableTimeoutMs?: number;
}

export interface IngestResult extends PhaseLoad {
  /** Through `batchIngest`: the aspects of the snapshots acknowledged. */
  readonly proposals: number;
  readonly requests: number;
  readonly seconds: number;
  readonly proposalsPerSecond: number;
  readonly latencyMs: Record<string, number | undefined>;
  readonly indexLagMs: Record<string, number | undefined>;
  /** From the last acknowledgement until search found every entity sent. */
  readonly allSearchableAfterMs?: number;
  readonly tooManyRequests: number;
  readonly failed: number;
  readonly firstFailure?: string;
  readonly lagMarkersSkipped: number;
  readonly lagMarkersNeverFound: number;
  /** The catalog's CPU time per acknowledged proposal (µs), added by the runner: a figure other load on the machine barely moves. */
  serverCpuUsPerProposal?: number;
  /** The load generator's CPU time per acknowledged proposal (µs), added by the runner: it shares the machine. */
  generatorCpuUsPerProposal?: number;
}

const MAX_ATTEMPTS = 30;

export async function runIngest(client: CatalogClient, feed: ProposalSpool, options: IngestOptions): Promise<IngestResult> {
  const latency = new Samples();
  const probe = new IndexLagProbe(client);
  let acked = 0;
  let requests = 0;
  let tooMany = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  let lastAck = 0;
  const started = now();
  const deadline = started + options.maxSeconds * 1000;

  const request = options.request;
  const take = (): SpooledProposal[] =>
    request.action === 'ingestProposal' ? feed.take(1) : request.action === 'ingestProposalBatch' ? feed.take(request.proposals) : feed.takeEntities(request.entities);
  const send = (items: SpooledProposal[]): Promise<HttpReply> => {
    if (request.action === 'ingestProposal') return client.ingestProposalJson(items[0]!.body, options.async);
    if (request.action === 'ingestProposalBatch') return client.ingestProposalBatchJson(items.map((i) => i.body), options.async);
    return client.batchIngest(snapshotsOf(request.registry, items.map((i) => JSON.parse(i.body) as MetadataChangeProposal)));
  };

  const worker = async () => {
    while (now() < deadline) {
      const items = take();
      if (items.length === 0) return;
      for (let attempt = 1; ; attempt++) {
        const t0 = now();
        let reply: HttpReply;
        try {
          reply = await send(items);
        } catch (err) {
          failed += items.length;
          firstFailure ??= (err as Error).message;
          break;
        }
        requests++;
        if (reply.status === 429 && attempt < MAX_ATTEMPTS) {
          tooMany++;
          await sleep(Math.min(5, reply.retryAfterSeconds ?? 1) * 1000);
          continue;
        }
        if (reply.status !== 200) {
          failed += items.length;
          firstFailure ??= `HTTP ${reply.status}: ${reply.body.slice(0, 300)}`;
          break;
        }
        latency.add(now() - t0);
        acked += items.length;
        lastAck = now();
        for (const i of items) if (i.createsEntity) probe.acknowledged(i.entityUrn);
        break;
      }
    }
  };

  probe.start();
  await Promise.all(Array.from({ length: options.clients }, worker));
  const sendSeconds = ((lastAck || now()) - started) / 1000;
  const neverFound = await probe.finish(options.searchableTimeoutMs ?? 120_000);
  const allSearchableAfterMs = await untilSearchable(client, options.expectSearchable(feed.entities), lastAck, options.searchableTimeoutMs ?? 120_000);
  return {
    proposals: acked,
    requests,
    seconds: round(sendSeconds)!,
    proposalsPerSecond: round(acked / sendSeconds, 0)!,
    latencyMs: latency.summary([50, 99]),
    indexLagMs: probe.lags.summary([50, 99]),
    ...(allSearchableAfterMs !== undefined ? { allSearchableAfterMs: round(allSearchableAfterMs, 0) } : {}),
    tooManyRequests: tooMany,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    lagMarkersSkipped: probe.skipped,
    lagMarkersNeverFound: neverFound,
  };
}
