/** A cairn service as its own process (never the load generator's), its start time and its memory. */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort, LAUNCHER, REPO_ROOT } from '../../test/support/process';
import { sleep } from '../stats';
import { statCpuMs, threadCpuMs } from './thread-cpu';

export { REPO_ROOT };

export interface ServiceOptions {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly logDir: string;
  /** Writes a V8 CPU profile there when the process exits. */
  readonly profileDir?: string;
  readonly healthTimeoutMs?: number;
  /** A free one when absent. */
  readonly port?: number;
}

export interface MemoryReading {
  /** Resident set now and its peak since the start, in MB. */
  readonly rssMb: number;
  readonly peakRssMb: number;
}

/**
 * The node options a service starts with, as a user starts it, so the bench measures what runs:
 * the embedded catalog's are those of `npm start` (the root package's `start` script), a
 * distributed service's those of its command in docker-compose.yml (which `deploy/local/services.sh`
 * matches, test/deploy/docker-compose.test.ts).
 */
export function nodeOptionsOf(service: string): string[] {
  const entry = `services/${service}/src/main.ts`;
  const command = service === 'standalone' ? npmStartCommand().split(/\s+/) : composeCommand(service);
  const tail = [LAUNCHER, entry];
  if (command[0] !== 'node' || command.slice(-tail.length).join(' ') !== tail.join(' ')) {
    throw new Error(`${service} does not start as "node [options] ${tail.join(' ')}": ${command.join(' ')}`);
  }
  return command.slice(1, -tail.length);
}

/** The root package's `start` script: how a user starts the embedded catalog. */
export function npmStartCommand(): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
}

function composeCommand(service: string): string[] {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { command?: string[] }> };
  const command = compose.services[service]?.command;
  if (!command) throw new Error(`docker-compose.yml has no command for ${service}`);
  return command;
}

export class ServiceProcess {
  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
    readonly startToHealthyMs: number,
    readonly logFile: string,
  ) {}

  static async start(options: ServiceOptions): Promise<ServiceProcess> {
    const port = options.port ?? (await freePort());
    const logFile = join(options.logDir, `${options.name}-${port}.log`);
    const out = openSync(logFile, 'a');
    const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
    // Read before the clock starts: parsing docker-compose.yml is the bench's work, not the service's start.
    const nodeOptions = nodeOptionsOf(options.name);
    const started = performance.now();
    const child = spawn(process.execPath, [...nodeOptions, ...profile, LAUNCHER, `services/${options.name}/src/main.ts`], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...options.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', out, out],
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (options.healthTimeoutMs ?? 120_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}; see ${logFile}`);
      try {
        if ((await fetch(`${baseUrl}/health`)).ok) return new ServiceProcess(options.name, child, port, performance.now() - started, logFile);
      } catch {
        // not listening yet
      }
      await sleep(10);
    }
    child.kill('SIGKILL');
    throw new Error(`${options.name} was not healthy in time; see ${logFile}`);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  memory(): MemoryReading {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
  }

  /** CPU time the process has used so far (user + system), in ms: unlike wall time, barely moved by other load on the machine. */
  cpuMs(): number {
    return statCpuMs(readFileSync(`/proc/${this.child.pid}/stat`, 'utf8'));
  }

  /** CPU time so far of each of the process's threads, by name (see thread-cpu.ts), in ms. */
  threadCpuMs(): Record<string, number> {
    return threadCpuMs(this.child.pid!);
  }

  /** SIGTERM (a clean stop writes the CPU profile), SIGKILL if it takes longer than `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}
