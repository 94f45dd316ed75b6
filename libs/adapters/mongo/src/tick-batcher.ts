/**
 * Gathers the calls made while the event loop handles one round of I/O into one call of `run`:
 * the persister applies many entities at once, and on FerretDB one request carrying many writes
 * costs little more than one carrying a single write (each request is a storage transaction).
 */
/** An item's outcome; a value may be a promise, for an item that needs more than the batch's request. */
export type Settled<O> = { readonly ok: true; readonly value: O | PromiseLike<O> } | { readonly ok: false; readonly error: unknown };

interface Pending<I, O> {
  readonly item: I;
  resolve(out: O | PromiseLike<O>): void;
  reject(err: unknown): void;
}

export class TickBatcher<I, O> {
  private pending: Pending<I, O>[] = [];

  /** `run` settles each item, in order; when it throws, every item of the batch fails with it. */
  constructor(private readonly run: (items: I[]) => Promise<Settled<O>[]>) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) setImmediate(() => void this.flush());
      this.pending.push({ item, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      const settled = await this.run(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        const s = settled[i]!;
        if (s.ok) p.resolve(s.value);
        else p.reject(s.error);
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
