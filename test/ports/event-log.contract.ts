/**
 * The EventLog contract: what every log adapter (embedded SQLite, Kafka, ...) must do. Ordering is
 * only promised per key, so the ordering cases use one key. An adapter whose topics only take
 * certain values (Avro-coded events) passes `value`/`label` to build and recognise them.
 */
import type { Consumer, EventLog, LogRecord } from '@cairn/ports';

export interface OpenedEventLog<T> {
  /** An empty topic. */
  readonly log: EventLog<T>;
  close(): Promise<void>;
}

export interface EventLogContractOptions<T> {
  /** A value carrying the label (default `{label}`). */
  readonly value?: (label: string) => T;
  readonly label?: (value: T) => string;
  /** A value the log cannot store, to check an append is all-or-nothing (skipped when absent). */
  readonly unstorable?: T;
  /** Longest wait for a delivery, in ms. */
  readonly timeoutMs?: number;
}

export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const offsetOf = (id: string) => Number(id.slice(id.lastIndexOf(':') + 1));

export function describeEventLogContract<T = { label: string }>(name: string, open: () => Promise<OpenedEventLog<T>>, options: EventLogContractOptions<T> = {}): void {
  const value = options.value ?? ((label: string) => ({ label }) as unknown as T);
  const label = options.label ?? ((v: T) => (v as unknown as { label: string }).label);
  const timeoutMs = options.timeoutMs ?? 5000;

  describe(`EventLog contract: ${name}`, () => {
    let opened: OpenedEventLog<T>;
    let log: EventLog<T>;
    const consumers: Consumer[] = [];
    let group = 0;
    const newGroup = () => `group-${process.pid}-${++group}`;

    beforeEach(async () => {
      opened = await open();
      log = opened.log;
    });
    afterEach(async () => {
      await Promise.all(consumers.splice(0).map((c) => c.stop()));
      await opened.close();
    });

    const records = (labels: string[], key = 'k') => labels.map((l) => ({ key, value: value(l) }));

    /** Consumes into a list until stopped. */
    function collect(grp: string, maxBatch?: number, lingerMs?: number): { seen: LogRecord<T>[]; batches: number[]; consumer: Consumer } {
      const seen: LogRecord<T>[] = [];
      const batches: number[] = [];
      const consumer = log.consume(
        grp,
        async (batch) => {
          batches.push(batch.length);
          seen.push(...batch);
        },
        { ...(maxBatch ? { maxBatch } : {}), ...(lingerMs ? { lingerMs } : {}) },
      );
      consumers.push(consumer);
      return { seen, batches, consumer };
    }

    async function stop(consumer: Consumer): Promise<void> {
      consumers.splice(consumers.indexOf(consumer), 1);
      await consumer.stop();
    }

    it('names its topic', () => {
      expect(typeof log.topic).toBe('string');
      expect(log.topic.length).toBeGreaterThan(0);
    });

    it('returns one distinct id per record, increasing in append order', async () => {
      const first = await log.append(records(['a', 'b', 'c']));
      const second = await log.append(records(['d']));
      const ids = [...first, ...second];
      expect(first).toHaveLength(3);
      expect(second).toHaveLength(1);
      expect(new Set(ids).size).toBe(4);
      for (const id of ids) expect(id).toMatch(/^\d+:\d+$/);
      const offsets = ids.map(offsetOf);
      expect([...offsets].sort((x, y) => x - y)).toEqual(offsets);
    });

    it('gives ids in call order to appends made in the same tick', async () => {
      const [a, b] = await Promise.all([log.append(records(['a1', 'a2'])), log.append(records(['b1']))]);
      expect(offsetOf(a[1])).toBeGreaterThan(offsetOf(a[0]));
      expect(offsetOf(b[0])).toBeGreaterThan(offsetOf(a[1]));
    });

    it('delivers records with their id, key, value, headers and timestamp', async () => {
      const before = Date.now();
      const ids = await log.append([
        { key: 'urn:li:corpuser:a', value: value('with-headers'), headers: { actor: 'urn:li:corpuser:x' } },
        { key: 'urn:li:corpuser:a', value: value('without-headers') },
      ]);
      const { seen } = collect(newGroup());
      await waitFor(() => seen.length === 2, timeoutMs, 'two records');
      expect(seen.map((r) => r.id)).toEqual(ids);
      expect(seen.map((r) => r.key)).toEqual(['urn:li:corpuser:a', 'urn:li:corpuser:a']);
      expect(seen.map((r) => label(r.value))).toEqual(['with-headers', 'without-headers']);
      expect(seen[0].headers).toEqual({ actor: 'urn:li:corpuser:x' });
      expect(seen[1].headers).toEqual({});
      for (const r of seen) {
        expect(r.timestamp).toBeGreaterThanOrEqual(before - 1000);
        expect(r.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
      }
    });

    it('delivers in append order, including records appended while consuming', async () => {
      const labels = Array.from({ length: 30 }, (_, i) => `r${i}`);
      await log.append(records(labels.slice(0, 10)));
      const { seen } = collect(newGroup());
      await log.append(records(labels.slice(10, 20)));
      await waitFor(() => seen.length >= 20, timeoutMs, '20 records');
      await log.append(records(labels.slice(20)));
      await waitFor(() => seen.length >= 30, timeoutMs, '30 records');
      expect(seen.map((r) => label(r.value))).toEqual(labels);
    });

    it('delivers reproducible records (a rebuild\'s) like any others to a group consuming them', async () => {
      await log.append(records(['s0']));
      const { seen } = collect(newGroup());
      await log.append(records(['r0', 'r1']), { reproducible: true });
      await log.append(records(['s1']));
      await waitFor(() => seen.length >= 4, timeoutMs, '4 records');
      expect(seen.map((r) => label(r.value))).toEqual(['s0', 'r0', 'r1', 's1']);
    });

    it('keeps the records of one append together', async () => {
      const a = ['a0', 'a1', 'a2', 'a3', 'a4'];
      const b = ['b0', 'b1', 'b2', 'b3', 'b4'];
      await Promise.all([log.append(records(a)), log.append(records(b))]);
      const { seen } = collect(newGroup());
      await waitFor(() => seen.length === 10, timeoutMs, '10 records');
      const got = seen.map((r) => label(r.value)).join(',');
      expect([[...a, ...b].join(','), [...b, ...a].join(',')]).toContain(got);
    });

    if (options.unstorable !== undefined) {
      it('stores all records of an append or none', async () => {
        await expect(log.append([{ key: 'k', value: value('ok-1') }, { key: 'k', value: options.unstorable as T }, { key: 'k', value: value('ok-2') }])).rejects.toThrow();
        await log.append(records(['after']));
        const { seen } = collect(newGroup());
        await waitFor(() => seen.length >= 1, timeoutMs, 'one record');
        await new Promise((r) => setTimeout(r, 50));
        expect(seen.map((r) => label(r.value))).toEqual(['after']);
      });
    }

    it('respects maxBatch', async () => {
      await log.append(records(Array.from({ length: 7 }, (_, i) => `r${i}`)));
      const { seen, batches } = collect(newGroup(), 3);
      await waitFor(() => seen.length === 7, timeoutMs, '7 records');
      expect(Math.max(...batches)).toBeLessThanOrEqual(3);
    });

    it('lets a small batch wait lingerMs for more records', async () => {
      const { seen, batches } = collect(newGroup(), undefined, 1500);
      await log.append(records(['warm']));
      await waitFor(() => seen.length === 1, timeoutMs, 'the first record');
      await log.append(records(['a']));
      await new Promise((r) => setTimeout(r, 300));
      await log.append(records(['b']));
      await waitFor(() => seen.length === 3, timeoutMs, 'both later records');
      expect(batches.slice(1)).toEqual([2]);
    });

    it('gives every group every record', async () => {
      await log.append(records(['a', 'b']));
      const one = collect(newGroup());
      const two = collect(newGroup());
      await waitFor(() => one.seen.length === 2 && two.seen.length === 2, timeoutMs, 'both groups');
      expect(one.seen.map((r) => r.id)).toEqual(two.seen.map((r) => r.id));
    });

    it('counts lag per group until the handler has resolved', async () => {
      const grp = newGroup();
      expect(await log.lag(grp)).toBe(0);
      await log.append(records(['a', 'b', 'c']));
      expect(await log.lag(grp)).toBe(3);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const delivered: LogRecord<T>[] = [];
      const consumer = log.consume(grp, async (batch) => {
        delivered.push(...batch);
        await gate;
      });
      consumers.push(consumer);
      await waitFor(() => delivered.length === 3, timeoutMs, 'delivery');
      await new Promise((r) => setTimeout(r, 30));
      expect(await log.lag(grp)).toBe(3);
      release();
      await waitFor(async () => (await log.lag(grp)) === 0, timeoutMs, 'commit');
      expect(await log.lag(newGroup())).toBe(3);
    });

    it('reports progress: the lag, and a committed count that grows by what the group commits', async () => {
      const grp = newGroup();
      const before = await log.progress(grp);
      expect(before.lag).toBe(0);
      await log.append(records(['a', 'b', 'c']));
      expect(await log.progress(grp)).toEqual({ lag: 3, committed: before.committed });
      consumers.push(log.consume(grp, async () => undefined));
      await waitFor(async () => (await log.lag(grp)) === 0, timeoutMs, 'commit');
      expect(await log.progress(grp)).toEqual({ lag: 0, committed: before.committed + 3 });
    });

    it('redelivers the same batch after a handler throws, then moves on', async () => {
      const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const ids = await log.append(records(['a', 'b']));
        const calls: string[][] = [];
        const grp = newGroup();
        const consumer = log.consume(grp, async (batch) => {
          calls.push(batch.map((r) => r.id));
          if (calls.length === 1) throw new Error('transient failure');
        });
        consumers.push(consumer);
        await waitFor(() => calls.length >= 2, timeoutMs, 'a retry');
        expect(calls[0]).toEqual(ids);
        expect(calls[1]).toEqual(ids);
        await waitFor(async () => (await log.lag(grp)) === 0, timeoutMs, 'commit');
        await log.append(records(['c']));
        await waitFor(() => calls.length >= 3, timeoutMs, 'the next record');
        expect(calls[2]).toHaveLength(1);
        expect(calls.flat().filter((id) => id === ids[0])).toHaveLength(2);
      } finally {
        warn.mockRestore();
      }
    });

    it('commits a taken batch once it is durable, not when the handler answers', async () => {
      const grp = newGroup();
      await log.append(records(['a', 'b']));
      let release!: () => void;
      const durable = new Promise<void>((r) => (release = r));
      const delivered: LogRecord<T>[] = [];
      consumers.push(
        log.consume(grp, async (batch) => {
          delivered.push(...batch);
          return { durable };
        }),
      );
      await waitFor(() => delivered.length === 2, timeoutMs, 'delivery');
      await new Promise((r) => setTimeout(r, 30));
      expect(await log.lag(grp)).toBe(2);
      release();
      await waitFor(async () => (await log.lag(grp)) === 0, timeoutMs, 'commit');
    });

    it('delivers a batch that failed to become durable again, with every batch after it', async () => {
      const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const grp = newGroup();
        await log.append(records(['a', 'b', 'c']));
        const calls: string[] = [];
        consumers.push(
          log.consume(
            grp,
            async (batch) => {
              const at = label(batch[0].value);
              calls.push(at);
              // The first delivery of `a` fails to become durable, after the handler answered.
              const fails = at === 'a' && calls.length === 1;
              return { durable: new Promise<void>((resolve, reject) => setTimeout(() => (fails ? reject(new Error('commit lost')) : resolve()), 20)) };
            },
            { maxBatch: 1 },
          ),
        );
        await waitFor(async () => (await log.lag(grp)) === 0, timeoutMs, 'every record committed');
        expect(calls.filter((c) => c === 'a')).toHaveLength(2);
        // Whatever was delivered while `a` was failing comes again after it, in order.
        expect(calls.slice(calls.lastIndexOf('a'))).toEqual(['a', 'b', 'c']);
      } finally {
        warn.mockRestore();
      }
    });

    it('stops: the last batch is committed, later records wait for the next consumer of the group', async () => {
      const grp = newGroup();
      await log.append(records(['a', 'b']));
      const first = collect(grp);
      await waitFor(() => first.seen.length === 2, timeoutMs, 'first records');
      await stop(first.consumer);
      expect(await log.lag(grp)).toBe(0);
      await log.append(records(['c']));
      await new Promise((r) => setTimeout(r, 50));
      expect(first.seen).toHaveLength(2);
      expect(await log.lag(grp)).toBe(1);
      const second = collect(grp);
      await waitFor(() => second.seen.length === 1, timeoutMs, 'the later record');
      expect(label(second.seen[0].value)).toBe('c');
    });

    it('stops promptly while idle', async () => {
      const { consumer } = collect(newGroup());
      await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      await stop(consumer);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('waits for a running handler before stop resolves', async () => {
      const grp = newGroup();
      await log.append(records(['slow']));
      let handled = false;
      let entered = false;
      const consumer = log.consume(grp, async () => {
        entered = true;
        await new Promise((r) => setTimeout(r, 100));
        handled = true;
      });
      await waitFor(() => entered, timeoutMs, 'the handler');
      await consumer.stop();
      expect(handled).toBe(true);
      expect(await log.lag(grp)).toBe(0);
    });
  });
}
