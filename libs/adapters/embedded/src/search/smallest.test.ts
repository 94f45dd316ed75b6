import { smallest } from './smallest';

describe('smallest', () => {
  const byNumber = (a: number, b: number) => a - b;

  it('answers the k smallest in order, as sorting everything would', () => {
    let seed = 7;
    const items = Array.from({ length: 5000 }, () => (seed = (seed * 48271) % 2147483647) % 1000);
    for (const k of [0, 1, 10, 11, 999, 1250, 5000, 6000]) {
      expect(smallest(items, k, byNumber)).toEqual([...items].sort(byNumber).slice(0, k));
    }
  });

  it('keeps the input as it was', () => {
    const items = [5, 3, 9, 1, 7, 2, 8, 6, 4, 0, 11, 10];
    smallest(items, 2, byNumber);
    expect(items).toEqual([5, 3, 9, 1, 7, 2, 8, 6, 4, 0, 11, 10]);
  });
});
