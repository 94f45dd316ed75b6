import { Backpressure, TooManyRequests } from './backpressure';

const limits = { maxLag: 10, maxBacklogSeconds: 5, maxPendingWrites: 5, retryAfterSeconds: 2, sampleMs: 0 };
const lagOf = (lag: number) => async () => ({ persister: { lag, committed: 0 } });

describe('Backpressure', () => {
  it('admits writes while lag and pending writes are within bounds', async () => {
    await expect(new Backpressure(limits, lagOf(10), () => 4).admit()).resolves.toBeUndefined();
  });

  it('refuses with 429 and a retry hint when consumers lag past the bound', async () => {
    const err = await new Backpressure(limits, lagOf(11), () => 0).admit().catch((e) => e);
    expect(err).toBeInstanceOf(TooManyRequests);
    expect(err.status).toBe(429);
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.message).toMatch(/persister consumers are 11 records behind/);
  });

  it('refuses when too many synchronous writes are waiting', async () => {
    await expect(new Backpressure(limits, lagOf(0), () => 5).admit()).rejects.toMatchObject({ status: 429 });
  });

  it('refuses a backlog that is more seconds of work than the bound at the rate the consumer drains', async () => {
    jest.useFakeTimers({ now: 1000 });
    try {
      // A slow consumer: 20 records/s, 500 behind = 25 s of work, under the record bound.
      let committed = 0;
      const bp = new Backpressure({ ...limits, maxLag: 10_000 }, async () => ({ persister: { lag: 500, committed } }), () => 0);
      await expect(bp.admit()).resolves.toBeUndefined(); // one sample measures no rate yet
      jest.setSystemTime(2000);
      committed += 20;
      const err = await bp.admit().catch((e) => e);
      expect(err).toBeInstanceOf(TooManyRequests);
      expect(err.message).toMatch(/500 records behind, 25 s of work at 20 records\/s \(limit 5 s\)/);
    } finally {
      jest.useRealTimers();
    }
  });

  it('admits the same lag when the consumer drains it within the bound', async () => {
    jest.useFakeTimers({ now: 1000 });
    try {
      let committed = 0;
      const bp = new Backpressure({ ...limits, maxLag: 10_000 }, async () => ({ persister: { lag: 500, committed } }), () => 0);
      for (let s = 1; s <= 4; s++) {
        jest.setSystemTime(s * 1000);
        await expect(bp.admit()).resolves.toBeUndefined();
        committed += 1000;
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('samples the progress at most once per interval', async () => {
    let reads = 0;
    const bp = new Backpressure({ ...limits, sampleMs: 60_000 }, async () => ({ persister: { lag: ++reads, committed: 0 } }), () => 0);
    await Promise.all([bp.admit(), bp.admit(), bp.admit()]);
    await bp.admit();
    expect(reads).toBe(1);
  });

  describe('caughtUp (a bulk producer waiting for its last records to be consumed)', () => {
    it('resolves once the group has committed what was appended when asked, though more was appended since', async () => {
      let progress = { committed: 100, lag: 30 };
      const bp = new Backpressure(limits, async () => ({ indexer: progress }), () => 0);
      let done = false;
      const waiting = bp.caughtUp('indexer').then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(done).toBe(false);
      progress = { committed: 129, lag: 11 }; // writes appended meanwhile
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(done).toBe(false);
      progress = { committed: 130, lag: 10 };
      await waiting;
      expect(done).toBe(true);
    });

    it('resolves at once for a group with nothing to consume', async () => {
      await expect(new Backpressure(limits, async () => ({ indexer: { committed: 7, lag: 0 } }), () => 0).caughtUp('indexer')).resolves.toBeUndefined();
    });
  });

  describe('holdingUp (a bulk producer\'s last step, which holds the group up)', () => {
    it('refuses writes for the group\'s records only while the step runs and the bound\'s seconds after', async () => {
      jest.useFakeTimers({ now: 1000 });
      try {
        // The indexer drained 100 records/s, then commits nothing while the step holds it up.
        let committed = 0;
        let lag = 150;
        const bp = new Backpressure({ ...limits, maxLag: 10_000 }, async () => ({ indexer: { lag, committed } }), () => 0);
        for (let s = 1; s <= 3; s++) {
          jest.setSystemTime(s * 1000);
          await bp.admit();
          committed += 100;
        }
        let release: () => void = () => undefined;
        const holding = bp.holdingUp('indexer', () => new Promise<void>((resolve) => (release = resolve)));
        lag = 1000;
        await jest.advanceTimersByTimeAsync(8000); // longer than the bound's 5 s without a commit
        await expect(bp.admit()).resolves.toBeUndefined();
        lag = 10_001;
        await jest.advanceTimersByTimeAsync(10);
        await expect(bp.admit()).rejects.toThrow(/10001 records behind \(limit 10000\)/);
        lag = 1000;
        release();
        await holding;
        await jest.advanceTimersByTimeAsync(4000);
        await expect(bp.admit()).resolves.toBeUndefined();
        await jest.advanceTimersByTimeAsync(1100);
        await expect(bp.admit()).rejects.toThrow(/s of work/);
      } finally {
        jest.useRealTimers();
      }
    });
  });

  describe('room (a bulk producer pacing itself)', () => {
    it('grants what keeps the group within three quarters of its bound, up to what is wanted', async () => {
      await expect(new Backpressure({ ...limits, maxLag: 100 }, lagOf(20), () => 0).room('persister', 1000)).resolves.toBe(55);
      await expect(new Backpressure({ ...limits, maxLag: 100 }, lagOf(20), () => 0).room('persister', 5)).resolves.toBe(5);
    });

    it('sees what the producer appended, however recent the last sample, so it cannot flood', async () => {
      let appended = 0;
      let reads = 0;
      const bp = new Backpressure({ ...limits, maxLag: 100, sampleMs: 300 }, async () => (reads++, { indexer: { lag: appended, committed: 0 } }), () => 0);
      appended += await bp.room('indexer', 40);
      expect(appended).toBe(40);
      appended += await bp.room('indexer', 40);
      expect(appended).toBe(75);
      // Each look read the progress afresh, though the interval of samples for writes had not passed.
      expect(reads).toBe(2);
      let third = 0;
      const waiting = bp.room('indexer', 30).then((n) => (third = n));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(third).toBe(0);
      // A waiting producer looks again every 20 ms or so, not once per sample interval (300 ms here).
      expect(reads).toBeGreaterThanOrEqual(5);
      appended = 0; // the indexer caught up
      await waiting;
      expect(third).toBe(30);
    });

    it('does not take a sample begun before the producer\'s last append as counting it', async () => {
      let appended = 0;
      let release: () => void = () => undefined;
      const slowRead = new Promise<void>((resolve) => (release = resolve));
      let first = true;
      const bp = new Backpressure({ ...limits, maxLag: 100, sampleMs: 60_000 }, async () => {
        const lag = appended;
        if (first) {
          first = false;
          await slowRead;
        }
        return { indexer: { lag, committed: 0 } };
      }, () => 0);
      const write = bp.admit(); // a writer's sample, begun before the append below
      appended += 50; // the producer's append, granted earlier
      const granted = bp.room('indexer', 100);
      release();
      await write;
      expect(await granted).toBe(25); // 75 - 50, not 75 from the older sample
    });

    it('waits while the group is three quarters of its bound behind and goes on once it catches up, writes admitted throughout', async () => {
      let lag = 80;
      const bp = new Backpressure({ ...limits, maxLag: 100 }, async () => ({ indexer: { lag, committed: 0 } }), () => 0);
      let granted = 0;
      const waiting = bp.room('indexer', 10).then((n) => (granted = n));
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(granted).toBe(0);
      await expect(bp.admit()).resolves.toBeUndefined();
      lag = 70;
      await waiting;
      expect(granted).toBe(5);
    });

    it('judges only the group it appends for, and not by the rate of a consumer that had next to no work', async () => {
      jest.useFakeTimers({ now: 1000 });
      try {
        // Both groups drained a trickle of 2 records/s; the indexer's bound stays the record bound.
        let committed = 0;
        const bp = new Backpressure({ ...limits, maxLag: 10_000 }, async () => ({ persister: { lag: 50, committed }, indexer: { lag: 1, committed } }), () => 0);
        for (let s = 1; s <= 3; s++) {
          jest.setSystemTime(s * 1000);
          await bp.admit();
          committed += 2;
        }
        await expect(bp.room('indexer', 100_000)).resolves.toBe(7499);
      } finally {
        jest.useRealTimers();
      }
    });

    it('while pacing itself for a group, writes are refused for its records, not for the seconds of work its share became when the group slowed', async () => {
      jest.useFakeTimers({ now: 1000 });
      try {
        // The producer filled its share at 1,000 records/s; the group then drains 100/s: 70 s of
        // work against a bound of 5 s, and writes add nothing to it.
        let lag = 7000;
        let committed = 0;
        const bp = new Backpressure({ ...limits, maxLag: 10_000 }, async () => ({ indexer: { lag, committed } }), () => 0);
        for (let s = 1; s <= 3; s++) {
          jest.setSystemTime(s * 1000);
          await bp.admit().catch(() => undefined);
          committed += 100;
        }
        await expect(bp.admit()).rejects.toThrow(/7000 records behind, 70 s of work at 100 records\/s/);
        const waiting = bp.room('indexer', 1); // the producer waits for room: it is pacing itself
        await expect(bp.admit()).resolves.toBeUndefined();
        lag = 10_001;
        jest.setSystemTime(4000);
        await expect(bp.admit()).rejects.toThrow(/10001 records behind \(limit 10000\)/);
        lag = 100;
        await jest.advanceTimersByTimeAsync(20);
        await waiting;
        // It stopped asking: once the bound's seconds have passed, seconds of work count again.
        lag = 7000;
        jest.setSystemTime(4000 + 5000 + 100);
        committed += 100;
        await expect(bp.admit()).rejects.toThrow(/s of work/);
      } finally {
        jest.useRealTimers();
      }
    });

    it('grants one record at a time when the bound leaves no share, once the group caught up', async () => {
      await expect(new Backpressure({ ...limits, maxLag: 1 }, lagOf(0), () => 0).room('persister', 1000)).resolves.toBe(1);
    });
  });
});
