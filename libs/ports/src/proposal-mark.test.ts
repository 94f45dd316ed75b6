import { alreadyApplied, proposalMark } from './proposal-mark';

describe('proposal marks', () => {
  const at = (offset: number, time: number, part?: string) => proposalMark(`1:${offset}`, time, part);

  it('recognise the same proposal, and its key write as the same', () => {
    expect(alreadyApplied(at(5, 100), at(5, 100))).toBe(true);
    expect(alreadyApplied(at(5, 100, 'key'), at(5, 100, 'key'))).toBe(true);
  });

  it('take an earlier offset of the same partition as applied, a later one as new', () => {
    expect(alreadyApplied(at(7, 120), at(5, 100))).toBe(true);
    expect(alreadyApplied(at(5, 100), at(7, 120))).toBe(false);
    expect(alreadyApplied(at(7, 120, 'key'), at(5, 100))).toBe(true);
  });

  it('take a record appended after the stored one as new even at a smaller offset (the log started again)', () => {
    expect(alreadyApplied(at(900, 100), at(3, 5_000))).toBe(false);
  });

  it('never order marks of different partitions or of an older form', () => {
    expect(alreadyApplied(proposalMark('0:9', 200), proposalMark('1:2', 100))).toBe(false);
    expect(alreadyApplied('0:9', proposalMark('0:2', 100))).toBe(false);
    expect(alreadyApplied('0:9', '0:9')).toBe(true);
  });

  it('compare offsets beyond the range of a double exactly', () => {
    expect(alreadyApplied(proposalMark('0:9007199254740993', 10), proposalMark('0:9007199254740992', 10))).toBe(true);
    expect(alreadyApplied(proposalMark('0:9007199254740992', 10), proposalMark('0:9007199254740993', 10))).toBe(false);
  });
});
