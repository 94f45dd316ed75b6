/**
 * Index lag as a client sees it: every `markerEveryMs` an entity's first acknowledged write
 * becomes a marker, and one search per `pollMs` asks which markers are searchable yet. A
 * marker's lag runs from its acknowledgement to the answer that first found it (so it errs
 * high by at most one poll; polling faster would load the server being measured).
 */
import type { CatalogClient } from '../client/catalog-client';
import { now, Samples, sleep } from '../stats';

const MAX_OUTSTANDING = 300;

export class IndexLagProbe {
  readonly lags = new Samples();
  /** Markers not taken because too many were still outstanding (the lag is then beyond what the probe sees). */
  skipped = 0;
  private readonly outstanding = new Map<string, number>();
  private lastMarkerAt = -Infinity;
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly client: CatalogClient,
    private readonly pollMs = 100,
    private readonly markerEveryMs = 200,
  ) {}

  /** Called for each acknowledged write that created an entity. */
  acknowledged(urn: string): void {
    const at = now();
    if (at - this.lastMarkerAt < this.markerEveryMs) return;
    if (this.outstanding.size >= MAX_OUTSTANDING) {
      this.skipped++;
      return;
    }
    this.lastMarkerAt = at;
    this.outstanding.set(urn, at);
  }

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.poll();
        await sleep(this.pollMs);
      }
    })();
  }

  private async poll(): Promise<void> {
    if (this.outstanding.size === 0) return;
    const found = await this.client.searchable([...this.outstanding.keys()]);
    const at = now();
    for (const urn of found) {
      const acked = this.outstanding.get(urn);
      if (acked === undefined) continue;
      this.lags.add(at - acked);
      this.outstanding.delete(urn);
    }
  }

  /** Waits until every marker is found or `timeoutMs` passes; answers how many were never found. */
  async finish(timeoutMs: number): Promise<number> {
    const deadline = now() + timeoutMs;
    while (this.outstanding.size > 0 && now() < deadline) await sleep(this.pollMs);
    this.running = false;
    await this.loop;
    return this.outstanding.size;
  }
}

/** Polls the searchable count until it reaches `expected`; the time since `since`, or undefined when the deadline passes first. */
export async function untilSearchable(client: CatalogClient, expected: number, since: number, timeoutMs: number): Promise<number | undefined> {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    if ((await client.searchableCount()) >= expected) return Math.max(0, now() - since);
    await sleep(50);
  }
  return undefined;
}
