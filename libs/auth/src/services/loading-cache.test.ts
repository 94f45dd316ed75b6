import { LoadingCache } from './loading-cache';

describe('LoadingCache', () => {
  it('loads once per key while fresh, shares a load in flight, forgets failures and deleted keys', async () => {
    let loads = 0;
    let fail = false;
    const cache = new LoadingCache<number>(60_000, async () => {
      loads++;
      if (fail) throw new Error('down');
      return loads;
    });
    expect(await Promise.all([cache.get('a'), cache.get('a')])).toEqual([1, 1]);
    expect(await cache.get('a')).toBe(1);
    cache.delete('a');
    expect(await cache.get('a')).toBe(2);
    fail = true;
    await expect(cache.get('b')).rejects.toThrow('down');
    fail = false;
    expect(await cache.get('b')).toBe(4);
    expect(await new LoadingCache<number>(0, async () => ++loads).get('c')).toBe(5);
  });
});
