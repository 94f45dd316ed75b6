/**
 * Outcomes of proposals carried over a log, so a synchronous write made in one process (gms)
 * learns when another process (mce-consumer) has applied it.
 */
import { RestliError } from '@cairn/core';
import type { Consumer, EventLog } from '@cairn/ports';
import type { ProposalSettler, Settled, WriteNotifier } from './write-notifier';

export interface ProposalResult {
  readonly id: string;
  readonly ok: boolean;
  readonly rows?: number;
  readonly status?: number;
  readonly message?: string;
}

export const PROPOSAL_RESULTS_TOPIC = 'cairn_ProposalResult_v1';

/** Batches the outcomes of one event-loop turn into one append. */
export class ResultLogSettler implements ProposalSettler {
  private pending: ProposalResult[] = [];

  constructor(private readonly log: EventLog<ProposalResult>) {}

  settle(id: string, outcome: Settled): void {
    this.pending.push(
      outcome.ok
        ? { id, ok: true, ...(outcome.result.rows !== undefined ? { rows: outcome.result.rows } : {}) }
        : { id, ok: false, status: outcome.error.status, message: outcome.error.message },
    );
    if (this.pending.length === 1) setImmediate(() => void this.flush());
  }

  /** Resolves once every outcome settled so far is on the log. */
  async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length) await this.log.append(batch.map((r) => ({ key: r.id, value: r })));
  }
}

/** Feeds outcomes read from the results log into this process's waiting requests. */
export function relayResults(log: EventLog<ProposalResult>, group: string, notifier: WriteNotifier): Consumer {
  return log.consume(group, async (batch) => {
    for (const { value: r } of batch) {
      notifier.settle(r.id, r.ok ? { ok: true, result: r.rows !== undefined ? { rows: r.rows } : {} } : { ok: false, error: new RestliError(r.status ?? 500, r.message ?? 'Proposal failed') });
    }
  }, { fromLatest: true });
}
