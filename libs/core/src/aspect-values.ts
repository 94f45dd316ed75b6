/** Value-level rules shared by every aspect store: equality of values and systemMetadata defaults. */

/** JSON with object keys sorted, so two values equal as data compare equal as text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
    }
    return v;
  });
}

/** Whether two aspect JSON texts hold the same data, whatever their key order. */
export function sameAspectValue(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
  } catch {
    return false;
  }
}

export const DEFAULT_RUN_ID = 'no-run-id-provided';
export const REGISTRY_NAME = 'cairn';
export const REGISTRY_VERSION = '0.0.0-dev';

export interface SystemMetadataLike {
  lastObserved?: number;
  runId?: string;
  registryName?: string;
  registryVersion?: string;
  properties?: Record<string, string>;
}

/** Fills what a producer left out, as the reference does on ingest. */
export function withSystemMetadataDefaults<T extends SystemMetadataLike>(given: T | undefined, now: number): T & Required<Pick<SystemMetadataLike, 'lastObserved' | 'runId' | 'registryName' | 'registryVersion'>> {
  // The defaults first and the given fields over them, not a spread first (docs/performance.md, "Objects that begin with a spread").
  const sm = { lastObserved: now, runId: DEFAULT_RUN_ID, registryName: REGISTRY_NAME, registryVersion: REGISTRY_VERSION, ...given } as T & SystemMetadataLike;
  if (!(sm.lastObserved && sm.lastObserved > 0)) sm.lastObserved = now;
  sm.runId ??= DEFAULT_RUN_ID;
  sm.registryName ??= REGISTRY_NAME;
  sm.registryVersion ??= REGISTRY_VERSION;
  return sm as T & Required<Pick<SystemMetadataLike, 'lastObserved' | 'runId' | 'registryName' | 'registryVersion'>>;
}
