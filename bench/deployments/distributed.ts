/** The distributed deployment: gms and the three consumers as processes, on the servers of deploy/local. */
import { systemClientAuth, type Deployment } from './deployment';
import { dropPrefixed, serviceEnv, type Backends } from '../../deploy/local/prefixed-run';
import { BackendProcesses } from './backend-processes';
import { readIndexWork } from './elastic-work';
import { ServiceProcess } from './service-process';

export const CONSUMERS = ['mce-consumer', 'mae-consumer', 'timeseries-indexer'] as const;

export interface DistributedOptions {
  readonly backends: Backends;
  /** Names every topic, index and database of the run. */
  readonly prefix: string;
  readonly logDir: string;
  readonly profileDir?: string;
  readonly env?: Record<string, string>;
}

export async function startDistributed(options: DistributedOptions): Promise<Deployment> {
  // gms runs with authentication on, as deployed; the benchmark calls it as the system client.
  const auth = systemClientAuth();
  const env = { ...serviceEnv(options.backends, options.prefix), ...auth.env, ...options.env };
  const start = (name: string, port?: number) =>
    ServiceProcess.start({ name, env, logDir: options.logDir, ...(port ? { port } : {}), ...(options.profileDir ? { profileDir: options.profileDir } : {}) });
  // The consumers first, as deploy/local/services.sh does: gms is healthy once they are running.
  const consumers: ServiceProcess[] = [];
  let gms: ServiceProcess;
  try {
    for (const name of CONSUMERS) consumers.push(await start(name));
    gms = await start('gms');
  } catch (err) {
    // A deployment that could not start leaves no process and no data behind.
    await Promise.all(consumers.map((s) => s.stop()));
    await dropPrefixed(options.backends, options.prefix);
    throw err;
  }
  const all = () => [gms, ...consumers];
  const backendProcesses = new BackendProcesses(options.backends);
  return {
    mode: 'distributed',
    baseUrl: gms.baseUrl,
    authorization: auth.authorization,
    startToHealthyMs: gms.startToHealthyMs,
    memory: () =>
      all()
        .map((s) => s.memory())
        .reduce((a, b) => ({ rssMb: a.rssMb + b.rssMb, peakRssMb: a.peakRssMb + b.peakRssMb })),
    cpuMs: () => all().reduce((ms, s) => ms + s.cpuMs(), 0),
    threadCpuMs: () => Object.fromEntries(all().flatMap((s) => Object.entries(s.threadCpuMs()).map(([thread, ms]) => [`${s.name}/${thread}`, ms]))),
    backendCpuMs: () => backendProcesses.cpuMs(),
    elasticIndexWork: () => readIndexWork(options.backends.elasticsearch, options.prefix),
    restart: async () => {
      await gms.stop();
      gms = await start('gms', gms.port);
      return gms.startToHealthyMs;
    },
    stop: async () => {
      await Promise.all(all().map((s) => s.stop()));
      await dropPrefixed(options.backends, options.prefix);
    },
  };
}
