import { AnalysisShare } from './analysis-share';

const taken = (share: AnalysisShare, n: number) => Array.from({ length: n }, () => share.takesNext()).filter(Boolean).length;

describe('AnalysisShare', () => {
  it('starts with half the documents, spread evenly', () => {
    const share = new AnalysisShare();
    expect(Array.from({ length: 6 }, () => share.takesNext())).toEqual([false, true, false, true, false, true]);
  });

  it.each([
    ['takes more while the writer is the busier thread, up to every document', 0.95, 0.6, 60, 100],
    ['takes fewer while the sending thread is the busier one, down to none', 0.6, 0.9, 40, 0],
  ])('%s', (_, writerBusy, ownBusy, afterOneBatch, afterMany) => {
    const share = new AnalysisShare();
    share.balance(writerBusy, ownBusy);
    expect(taken(share, 100)).toBe(afterOneBatch);
    for (let i = 0; i < 10; i++) share.balance(writerBusy, ownBusy);
    expect(taken(share, 100)).toBe(afterMany);
  });

  it('stays where the two threads are about as busy', () => {
    const share = new AnalysisShare();
    share.balance(0.82, 0.8);
    share.balance(0.8, 0.83);
    expect(taken(share, 100)).toBe(50);
  });
});
