import { inOrder, smallest } from './smallest';

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

describe('inOrder', () => {
  const byNumber = (a: number, b: number) => a - b;

  it('yields every item in sorted order, past the first ones too', () => {
    const items = Array.from({ length: 300 }, (_, i) => (i * 7919) % 1009);
    for (const first of [0, 1, 10, 300, 400]) expect([...inOrder(items, first, byNumber)]).toEqual([...items].sort(byNumber));
  });

  it('answers the first ones without the rest when the reader stops', () => {
    const items = [9, 4, 7, 1, 8, 2, 6, 3, 5, 0];
    const read: number[] = [];
    for (const item of inOrder(items, 3, byNumber)) {
      if (read.length === 3) break;
      read.push(item);
    }
    expect(read).toEqual([0, 1, 2]);
  });
});
