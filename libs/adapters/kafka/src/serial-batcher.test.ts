import { SerialBatcher } from './serial-batcher';

describe('SerialBatcher', () => {
  it('runs one batch at a time, merging the calls that wait, and answers each call with its own outputs', async () => {
    const runs: number[][] = [];
    let release!: () => void;
    const batcher = new SerialBatcher<number, string>(async (items) => {
      runs.push(items);
      if (runs.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((i) => `#${i}`);
    });
    const first = batcher.submit([1, 2]);
    const sameTick = batcher.submit([3]);
    await new Promise((r) => setImmediate(r));
    const second = batcher.submit([4]);
    const third = batcher.submit([5, 6]);
    release();
    expect(await Promise.all([first, sameTick, second, third])).toEqual([['#1', '#2'], ['#3'], ['#4'], ['#5', '#6']]);
    expect(runs).toEqual([[1, 2, 3], [4, 5, 6]]);
  });

  it('rejects the calls of a failed batch and goes on with the next', async () => {
    let fail = true;
    const batcher = new SerialBatcher<number, number>(async (items) => {
      if (fail) throw new Error('broker down');
      return items;
    });
    const failed = batcher.submit([1]);
    await expect(failed).rejects.toThrow('broker down');
    fail = false;
    expect(await batcher.submit([2])).toEqual([2]);
  });
});
