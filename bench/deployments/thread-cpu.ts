/**
 * A process's CPU time by thread, from `/proc/<pid>/task`: the embedded service names its threads
 * (`nameThread`), the main thread is `main`, and the unnamed rest (V8's and libuv's helpers, all
 * `node`) add up under that name. A thread that ended between two readings drops out of the later
 * one, so its share of the interval is lost, not misattributed.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/task/<tid>/stat` (Linux's USER_HZ). */
const TICK_MS = 10;

/** CPU ms (user + system) from a process's or thread's `stat` line; the command name may hold spaces and parentheses. */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export function threadCpuMs(pid: number): Record<string, number> {
  const byName: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name: string;
    let ms: number;
    try {
      name = Number(tid) === pid ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      ms = statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
    } catch {
      continue; // the thread ended while being read
    }
    byName[name] = (byName[name] ?? 0) + ms;
  }
  return byName;
}

/** The cores each thread kept busy between two readings `wallMs` apart, largest first, to two decimals. */
export function coresByThread(before: Record<string, number>, after: Record<string, number>, wallMs: number): Record<string, number> {
  const cores = Object.entries(after).map(([name, ms]) => [name, Math.round((100 * (ms - (before[name] ?? 0))) / Math.max(1, wallMs)) / 100] as const);
  return Object.fromEntries(cores.filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]));
}
