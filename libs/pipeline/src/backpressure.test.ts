import { Backpressure, TooManyRequests } from './backpressure';

const limits = { maxLag: 10, maxPendingWrites: 5, retryAfterSeconds: 2, sampleMs: 0 };

describe('Backpressure', () => {
  it('admits writes while lag and pending writes are within bounds', async () => {
    await expect(new Backpressure(limits, async () => 10, () => 4).admit()).resolves.toBeUndefined();
  });

  it('refuses with 429 and a retry hint when consumers lag past the bound', async () => {
    const err = await new Backpressure(limits, async () => 11, () => 0).admit().catch((e) => e);
    expect(err).toBeInstanceOf(TooManyRequests);
    expect(err.status).toBe(429);
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.message).toMatch(/11 records behind/);
  });

  it('refuses when too many synchronous writes are waiting', async () => {
    await expect(new Backpressure(limits, async () => 0, () => 5).admit()).rejects.toMatchObject({ status: 429 });
  });

  it('samples the lag at most once per interval', async () => {
    let reads = 0;
    const bp = new Backpressure({ ...limits, sampleMs: 60_000 }, async () => ++reads, () => 0);
    await Promise.all([bp.admit(), bp.admit(), bp.admit()]);
    await bp.admit();
    expect(reads).toBe(1);
  });
});
