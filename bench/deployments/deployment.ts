/** What a scenario needs of the catalog under test, whichever way it is deployed. */
import { randomBytes } from 'node:crypto';
import type { IndexWorkDelta, IndexWorkReading } from './elastic-work';
import type { MemoryReading } from './service-process';

export type Mode = 'embedded' | 'distributed';

export interface Deployment {
  readonly mode: Mode;
  readonly baseUrl: string;
  /** The Authorization header its API wants, when authentication is on (the system client's). */
  readonly authorization?: string;
  /** From spawning the API process to its first healthy answer. */
  readonly startToHealthyMs: number;
  /** The catalog's own processes (the backends' servers are not counted). */
  memory(): MemoryReading;
  /** CPU time the catalog's own processes have used so far, in ms. */
  cpuMs(): number;
  /** The same by thread (`<service>/<thread>` when there are several processes). */
  threadCpuMs(): Record<string, number>;
  /** CPU time the backends' server processes on this machine have used so far, in ms, by backend (none when embedded). */
  backendCpuMs(): Record<string, number>;
  /** Elasticsearch's work on the deployment's indices so far, by index (none when embedded). */
  elasticIndexWork(): Promise<IndexWorkReading | undefined>;
  /** Stops and starts the API process on the data it has; answers the time to healthy. */
  restart(): Promise<number>;
  stop(): Promise<void>;
}

/** What a phase kept busy, measured around it by the runner (`withCpu`). */
export interface PhaseLoad {
  /** The cores each of the catalog's threads kept busy meanwhile. */
  serverCoresByThread?: Record<string, number>;
  /** The cores each local backend's server process kept busy meanwhile (distributed mode). */
  backendCores?: Record<string, number>;
  /** Elasticsearch's indexing, refresh and merge time by index meanwhile (distributed mode), busiest first. */
  elasticByIndex?: IndexWorkDelta[];
}

/** Authentication on, with fresh secrets: the API's environment and the system client's Authorization header. */
export function systemClientAuth(): { env: Record<string, string>; authorization: string } {
  const secret = () => randomBytes(24).toString('hex');
  const env = {
    METADATA_SERVICE_AUTH_ENABLED: 'true',
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: secret(),
    DATAHUB_TOKEN_SERVICE_SALT: secret(),
    DATAHUB_SYSTEM_CLIENT_SECRET: secret(),
  };
  return { env, authorization: `Basic __datahub_system:${env.DATAHUB_SYSTEM_CLIENT_SECRET}` };
}

/** `cairn_consumer_lag_records` per consumer group, from the API process's Prometheus metrics. */
export async function consumerLag(deployment: Pick<Deployment, 'baseUrl' | 'authorization'>): Promise<Record<string, number>> {
  const res = await fetch(`${deployment.baseUrl}/metrics`, deployment.authorization ? { headers: { Authorization: deployment.authorization } } : {});
  const text = await res.text();
  const lags: Record<string, number> = {};
  for (const m of text.matchAll(/^cairn_consumer_lag_records\{[^}]*group="([^"]+)"[^}]*\} (\S+)$/gm)) lags[m[1]!] = Number(m[2]);
  return lags;
}
