/**
 * Brief caching of auth lookups: a value is loaded on first use and kept for `ttlMs`; lookups of
 * one key made while it loads share that one read.
 */
export class LoadingCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly load: (key: string) => Promise<V>,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): Promise<V> {
    const now = Date.now();
    const e = this.entries.get(key);
    if (e && e.until > now) return e.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = this.load(key);
    // Until it settles the entry serves concurrent lookups; a failed load is not kept.
    this.entries.set(key, { value, until: Number.POSITIVE_INFINITY });
    value.then(
      () => this.entries.get(key)?.value === value && this.entries.set(key, { value, until: Date.now() + this.ttlMs }),
      () => this.entries.get(key)?.value === value && this.entries.delete(key),
    );
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
