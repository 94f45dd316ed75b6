/** Configuration of the all-in-one embedded service, from the environment. */
import { resolve } from 'node:path';
import { DEFAULT_BACKPRESSURE } from '@cairn/pipeline';

export interface StandaloneConfig {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly maxBodyBytes: number;
  readonly asyncIngestDefault: boolean;
  readonly syncWriteTimeoutMs: number;
  readonly durability: 'normal' | 'full';
  readonly exposeStackTraces: boolean;
  readonly maxIndexLag: number;
  readonly maxPendingWrites: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): StandaloneConfig {
  const durability = env.EMBEDDED_DURABILITY ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') throw new Error(`EMBEDDED_DURABILITY must be normal or full, got '${durability}'`);
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 16 * 1024 * 1024),
    asyncIngestDefault: env.INGEST_ASYNC_DEFAULT === 'true',
    syncWriteTimeoutMs: int(env, 'SYNC_WRITE_TIMEOUT_MS', 30_000),
    durability,
    exposeStackTraces: env.EXPOSE_STACK_TRACES === 'true',
    maxIndexLag: int(env, 'MAX_INDEX_LAG', DEFAULT_BACKPRESSURE.maxLag),
    maxPendingWrites: int(env, 'MAX_PENDING_WRITES', DEFAULT_BACKPRESSURE.maxPendingWrites),
  };
}
