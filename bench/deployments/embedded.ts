/** The embedded default: `npm start`'s process on a fresh data directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClientAuth, type Deployment } from './deployment';
import { ServiceProcess } from './service-process';

export interface EmbeddedOptions {
  readonly logDir: string;
  readonly profileDir?: string;
  readonly env?: Record<string, string>;
  /** Keep the data directory after the run (to inspect it). */
  readonly keepData?: boolean;
  /** Authentication on (off by default, as `npm start`), the benchmark calling as the system client. */
  readonly auth?: boolean;
}

export async function startEmbedded(options: EmbeddedOptions): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const auth = options.auth ? systemClientAuth() : undefined;
  const start = (port?: number) =>
    ServiceProcess.start({
      name: 'standalone',
      ...(port ? { port } : {}),
      env: { DATA_DIR: dataDir, ...auth?.env, ...options.env },
      logDir: options.logDir,
      ...(options.profileDir ? { profileDir: options.profileDir } : {}),
    });
  let service = await start();
  return {
    mode: 'embedded',
    baseUrl: service.baseUrl,
    ...(auth ? { authorization: auth.authorization } : {}),
    startToHealthyMs: service.startToHealthyMs,
    memory: () => service.memory(),
    cpuMs: () => service.cpuMs(),
    threadCpuMs: () => service.threadCpuMs(),
    backendCpuMs: () => ({}),
    elasticIndexWork: async () => undefined,
    restart: async () => {
      await service.stop();
      service = await start(service.port);
      return service.startToHealthyMs;
    },
    stop: async () => {
      await service.stop();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
