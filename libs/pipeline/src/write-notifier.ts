/**
 * Lets a synchronous write wait for the persister to apply its proposal: the persister settles
 * each log id, the REST handler awaits it. Recent results are kept briefly, so a waiter that
 * arrives after the persister still gets its answer.
 */
import { RestliError } from '@cairn/core';

export interface ApplyResult {
  /** Rows removed by a delete (versions included). */
  readonly rows?: number;
}

export type Settled = { ok: true; result: ApplyResult } | { ok: false; error: RestliError };

/**
 * Where the persister reports each proposal's outcome: straight to the waiting requests in one
 * process (WriteNotifier), or onto a results log that the API processes read (ResultLogSettler).
 */
export interface ProposalSettler {
  settle(id: string, outcome: Settled): void;
}

const KEEP_SETTLED = 50_000;

export class WriteNotifier implements ProposalSettler {
  private readonly waiters = new Map<string, (s: Settled) => void>();
  private readonly settled = new Map<string, Settled>();

  settle(id: string, outcome: Settled): void {
    const waiter = this.waiters.get(id);
    if (waiter) {
      this.waiters.delete(id);
      waiter(outcome);
      return;
    }
    this.settled.set(id, outcome);
    if (this.settled.size > KEEP_SETTLED) this.settled.delete(this.settled.keys().next().value as string);
  }

  wait(id: string, timeoutMs: number): Promise<ApplyResult> {
    const early = this.settled.get(id);
    if (early) {
      this.settled.delete(id);
      return early.ok ? Promise.resolve(early.result) : Promise.reject(early.error);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new RestliError(504, `Proposal ${id} is queued but was not applied within ${timeoutMs} ms; it will still be applied`));
      }, timeoutMs);
      this.waiters.set(id, (s) => {
        clearTimeout(timer);
        if (s.ok) resolve(s.result);
        else reject(s.error);
      });
    });
  }

  /** Requests still waiting: used for backpressure and health. */
  get pending(): number {
    return this.waiters.size;
  }
}
