/**
 * Runs one batch at a time, in call order: calls made while a batch is in flight (or in the
 * same tick) go together into the next one. Concurrent kafkajs sends can overtake each other
 * (one may wait for topic metadata while the next does not), so sending one at a time is what
 * keeps appends in call order; batching keeps that from costing a round trip per call.
 */
interface Pending<I, O> {
  readonly items: readonly I[];
  resolve(out: O[]): void;
  reject(err: unknown): void;
}

export class SerialBatcher<I, O> {
  private queue: Pending<I, O>[] = [];
  private running = false;

  /** `run` gives one output per item, in order. */
  constructor(private readonly run: (items: I[]) => Promise<O[]>) {}

  submit(items: readonly I[]): Promise<O[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      if (!this.running) {
        this.running = true;
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const calls = this.queue;
      this.queue = [];
      try {
        const out = await this.run(calls.flatMap((c) => c.items));
        let from = 0;
        for (const call of calls) call.resolve(out.slice(from, (from += call.items.length)));
      } catch (err) {
        for (const call of calls) call.reject(err);
      }
    }
    this.running = false;
  }
}
