/**
 * The backends' server processes on this machine, found by the port each listens on, and the CPU
 * time each has used: in distributed mode they share the cores with the catalog, so where the
 * time of a run goes is as much theirs as the catalog's. A backend on another host, or one whose
 * process this user may not inspect, is left out.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Backends } from '../../deploy/local/prefixed-run';
import { statCpuMs } from './thread-cpu';

const LISTEN = '0A';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

/** The socket inodes listening on `port` in a `/proc/net/tcp` or `tcp6` table. */
export function listeningInodes(table: string, port: number): string[] {
  const inodes: string[] = [];
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 10 || cols[3] !== LISTEN) continue;
    const localPort = parseInt(cols[1]!.slice(cols[1]!.lastIndexOf(':') + 1), 16);
    if (localPort === port) inodes.push(cols[9]!);
  }
  return inodes;
}

/** The process holding a socket that listens on `port` of this machine, if one can be seen. */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      for (const inode of listeningInodes(readFileSync(table, 'utf8'), port)) inodes.add(`socket:[${inode}]`);
    } catch {
      // no IPv6 table on this machine
    }
  }
  if (inodes.size === 0) return undefined;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return Number(pid);
      } catch {
        // closed while being read
      }
    }
  }
  return undefined;
}

/** The loopback port of a backend address (`host:port`, or a URL), if it is on this machine. */
export function localPort(address: string): number | undefined {
  const url = new URL(address.includes('://') ? address : `tcp://${address.split(',')[0]}`);
  if (!LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  const port = Number(url.port || (url.protocol === 'mongodb:' ? 27017 : url.protocol === 'https:' ? 443 : 80));
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/** Reads the CPU time of each local backend's process, found once. */
export class BackendProcesses {
  private readonly pids: Record<string, number> = {};

  constructor(backends: Backends) {
    for (const [name, address] of Object.entries(backends)) {
      const port = localPort(address);
      const pid = port === undefined ? undefined : pidListeningOn(port);
      if (pid !== undefined) this.pids[name] = pid;
    }
  }

  /** CPU ms (user + system, all threads) each backend's process has used so far. */
  cpuMs(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.pids)) {
      try {
        out[name] = statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        // the server stopped: it drops out of the reading
      }
    }
    return out;
  }
}
