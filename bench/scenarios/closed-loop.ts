/**
 * `clients` concurrent clients sending requests back to back, bounded by a count and a duration,
 * after `warmup` requests that are not measured (a process's first requests of a kind run cold
 * code: the service's JIT has not compiled that path yet).
 */
import type { HttpReply } from '../client/http-client';
import { cpuUsPerUnit, now, round, Samples } from '../stats';

export interface LoopResult {
  readonly requests: number;
  readonly perSecond: number;
  readonly latencyMs: Record<string, number | undefined>;
  readonly errors: number;
  readonly firstError?: string;
  /** The catalog's CPU time per request (µs), when its CPU time can be read. */
  readonly serverCpuUsPerRequest?: number;
  /** This process's CPU time per request (µs): what the load generator takes of the same machine. */
  readonly generatorCpuUsPerRequest: number;
}

export interface LoopBounds {
  readonly clients: number;
  readonly requests: number;
  readonly seconds: number;
  readonly warmup?: number;
  /** The catalog's CPU time so far (ms), to attribute it per request. */
  readonly serverCpuMs?: () => number;
  /** Which replies count as answered (default: 200 without errors in the body). */
  readonly answered?: (reply: HttpReply) => boolean;
}

const answeredOk = (reply: HttpReply) => reply.status === 200 && !reply.body.includes('"errors":[');

export async function closedLoop(bounds: LoopBounds, request: (i: number) => Promise<HttpReply>): Promise<LoopResult> {
  if (bounds.warmup) await measuredLoop({ ...bounds, requests: bounds.warmup, serverCpuMs: undefined }, request);
  return measuredLoop(bounds, request);
}

async function measuredLoop(bounds: LoopBounds, request: (i: number) => Promise<HttpReply>): Promise<LoopResult> {
  const { clients, requests, seconds } = bounds;
  const cpuBefore = bounds.serverCpuMs?.();
  const generatorBefore = process.cpuUsage();
  const answered = bounds.answered ?? answeredOk;
  const latency = new Samples();
  let sent = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = now();
  const deadline = started + seconds * 1000;
  const worker = async () => {
    while (sent < requests && now() < deadline) {
      const i = sent++;
      const t0 = now();
      try {
        const reply = await request(i);
        if (!answered(reply)) {
          errors++;
          firstError ??= `HTTP ${reply.status}: ${reply.body.slice(0, 300)}`;
          continue;
        }
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
        continue;
      }
      latency.add(now() - t0);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const cpuUsed = cpuBefore === undefined ? undefined : bounds.serverCpuMs!() - cpuBefore;
  return {
    requests: sent,
    perSecond: round(sent / ((now() - started) / 1000), 0)!,
    latencyMs: latency.summary([50, 95, 99]),
    errors,
    ...(firstError ? { firstError } : {}),
    ...(cpuUsed !== undefined ? { serverCpuUsPerRequest: round((1000 * cpuUsed) / Math.max(1, sent), 0)! } : {}),
    generatorCpuUsPerRequest: cpuUsPerUnit(generatorBefore, sent),
  };
}
