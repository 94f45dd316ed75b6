/** Runs the service as a real child process, for crash and restart tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');
/** What runs a service's entry point, as `npm start` and the deployments start it. */
export const LAUNCHER = 'libs/launcher/launch.cjs';

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => res(port));
    });
    s.once('error', rej);
  });
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly output: () => string;
}

/** Starts `npm start`'s entry point through the launcher, without npm (one process, so kill -9 hits the service itself). */
export function startService(env: Record<string, string>, timeoutMs = 20_000): Promise<ServiceProcess> {
  return startNamedService('standalone', env, timeoutMs);
}

/** Starts one of the services (`services/<name>`) on a free port and waits for its /health. */
export async function startNamedService(name: string, env: Record<string, string>, timeoutMs = 60_000): Promise<ServiceProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [LAUNCHER, `services/${name}/src/main.ts`], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await new Promise((r) => setTimeout(r, 200)); // let the last output arrive
      throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    }
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return { child, baseUrl, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not become healthy in ${timeoutMs} ms:\n${output}`);
}

export function killHard(p: ServiceProcess): Promise<void> {
  return new Promise((res) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return res();
    p.child.once('exit', () => res());
    p.child.kill('SIGKILL');
  });
}
