/** Proposals as the reference's REST emitter sends them: JSON-text aspects and system metadata with a run id. */
import type { MetadataChangeProposal } from '@cairn/events';

/** Every generated timestamp is relative to this instant, so catalogs do not depend on the clock. */
export const BASE_TIME = 1_700_000_000_000;
export const DAY_MS = 86_400_000;
export const BENCH_RUN_ID = 'cairn-bench';

export function upsert(entityType: string, entityUrn: string, aspectName: string, value: unknown): MetadataChangeProposal {
  return {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
    systemMetadata: { lastObserved: BASE_TIME, runId: BENCH_RUN_ID },
  };
}

export function audit(actor: string, time = BASE_TIME) {
  return { time, actor };
}
