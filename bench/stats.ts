/** Latency samples and their percentiles. */

export class Samples {
  private values: number[] = [];

  add(value: number): void {
    this.values.push(value);
  }

  get count(): number {
    return this.values.length;
  }

  /** Nearest-rank percentile (p in 0..100); undefined without samples. */
  percentile(p: number): number | undefined {
    if (this.values.length === 0) return undefined;
    const sorted = this.sorted();
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  }

  max(): number | undefined {
    return this.values.length ? this.sorted()[this.values.length - 1] : undefined;
  }

  summary(percentiles: readonly number[] = [50, 95, 99]): Record<string, number | undefined> {
    const out: Record<string, number | undefined> = { count: this.count };
    for (const p of percentiles) out[`p${p}`] = round(this.percentile(p));
    out.max = round(this.max());
    return out;
  }

  private sortedCache?: number[];
  private sorted(): number[] {
    if (this.sortedCache?.length !== this.values.length) this.sortedCache = [...this.values].sort((a, b) => a - b);
    return this.sortedCache;
  }
}

export function round(value: number | undefined, digits = 2): number | undefined {
  if (value === undefined) return undefined;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export const now = (): number => performance.now();

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** This process's CPU time (user + system) since `since` (a `process.cpuUsage()`), in µs per unit of work. */
export function cpuUsPerUnit(since: NodeJS.CpuUsage, units: number): number {
  const used = process.cpuUsage(since);
  return round((used.user + used.system) / Math.max(1, units), 0)!;
}
