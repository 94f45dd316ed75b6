import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('lets perMinute requests through per key, then says how long to wait, and refills', () => {
    let now = 0;
    const limiter = new RateLimiter(2, () => now);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.peek('a')).toBe(30);
    expect(limiter.take('a')).toBe(30);
    expect(limiter.take('b')).toBe(0);
    now += 30_000;
    expect(limiter.take('a')).toBe(0);
    expect(new RateLimiter(0).take('a')).toBe(0);
  });
});
