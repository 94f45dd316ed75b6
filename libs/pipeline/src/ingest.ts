/** The write use case: every ingest becomes proposals on the log; sync callers wait for them to apply. */
import type { Registry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import type { LogProducer } from '@cairn/ports';
import { ACTOR_HEADER } from './logs';
import { checkProposal, type CheckedProposal } from './proposal-check';
import type { Backpressure } from './backpressure';
import type { ApplyResult, WriteNotifier } from './write-notifier';

export interface IngestOptions {
  /** Answer once the proposals are durably queued instead of once they are applied. */
  readonly async?: boolean;
  readonly actor: string;
}

/** Refuses (throws) when the actor may not make these proposals; every write passes it. */
export type ProposalAuthorizer = (actor: string, proposals: readonly CheckedProposal[]) => Promise<void>;

export class IngestService {
  constructor(
    private readonly registry: Registry,
    private readonly logs: { readonly proposals: LogProducer<MetadataChangeProposal> },
    private readonly notifier: WriteNotifier,
    private readonly syncTimeoutMs: number,
    private readonly backpressure?: Backpressure,
    private readonly authorize?: ProposalAuthorizer,
  ) {}

  /**
   * Checks every proposal first (against the model, then the actor's privileges), so one bad or
   * refused record rejects the whole call and nothing is queued; then appends them in one atomic append.
   */
  async propose(proposals: readonly MetadataChangeProposal[], options: IngestOptions): Promise<ApplyResult[]> {
    const now = Date.now();
    const checked = proposals.map((p) => checkProposal(this.registry, p, now));
    await this.authorize?.(options.actor, checked);
    await this.backpressure?.admit();
    // Stored even when the caller waits for the apply: the persister appends the change logs after
    // the aspects commit, and a crash between the two is mended by delivering the proposal again.
    const ids = await this.logs.proposals.append(
      checked.map((c) => ({ key: c.urn, value: c.mcp, headers: { [ACTOR_HEADER]: options.actor } })),
    );
    if (options.async) return ids.map(() => ({}));
    return Promise.all(ids.map((id) => this.notifier.wait(id, this.syncTimeoutMs)));
  }
}
