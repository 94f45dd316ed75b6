/** Token buckets per key (an actor, a client address): `perMinute` requests, refilled continuously. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when the request may go ahead (and it is counted), else the seconds until it may. */
  take(key: string): number {
    const wait = this.peek(key);
    if (wait === 0 && this.perMinute > 0) this.buckets.get(key)!.tokens -= 1;
    return wait;
  }

  /** As take, without counting the request. */
  peek(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const perMs = this.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: now };
    b.tokens = Math.min(this.perMinute, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.forgetFull(now, perMs);
    return b.tokens >= 1 ? 0 : Math.ceil((1 - b.tokens) / perMs / 1000);
  }

  /** Full buckets carry no information; dropping them bounds memory under many distinct keys. */
  private forgetFull(now: number, perMs: number): void {
    for (const [key, b] of this.buckets) if (b.tokens + (now - b.at) * perMs >= this.perMinute) this.buckets.delete(key);
  }
}
