import { DrainRate } from './drain-rate';

describe('DrainRate', () => {
  it('measures records committed per second over the intervals that had lag', () => {
    const rate = new DrainRate();
    rate.record(0, { lag: 0, committed: 0 });
    rate.record(5_000, { lag: 400, committed: 0 }); // idle until the burst: says nothing
    rate.record(6_000, { lag: 300, committed: 100 });
    rate.record(7_000, { lag: 200, committed: 200 });
    expect(rate.perSecond()).toBeCloseTo(100, 5); // not 200 records over 7 s
  });

  it('gives no rate before a second of work', () => {
    const rate = new DrainRate();
    rate.record(0, { lag: 10, committed: 0 });
    rate.record(500, { lag: 5, committed: 5 });
    expect(rate.perSecond()).toBeUndefined();
  });

  it('gives no rate while a first batch runs, however long it takes to commit, up to the stall bound', () => {
    const rate = new DrainRate(10_000, 1, 5_000);
    for (let t = 0; t <= 3_000; t += 500) rate.record(t, { lag: 7_500, committed: 7 });
    expect(rate.perSecond()).toBeUndefined();
    rate.record(3_500, { lag: 0, committed: 7_507 });
    expect(rate.perSecond()).toBeCloseTo(7_500 / 3.5, 5);
  });

  it('gives zero for a consumer that has work and makes no progress for the stall bound', () => {
    const rate = new DrainRate(10_000, 1, 5_000);
    for (let t = 0; t <= 5_000; t += 500) rate.record(t, { lag: 50, committed: 7 });
    expect(rate.perSecond()).toBe(0);
  });

  it('forgets what happened before its window', () => {
    const rate = new DrainRate(2_000);
    rate.record(0, { lag: 100, committed: 0 });
    rate.record(1_000, { lag: 100, committed: 1_000 });
    for (let t = 2_000; t <= 6_000; t += 1_000) rate.record(t, { lag: 100, committed: 1_000 + (t - 1_000) / 100 });
    expect(rate.perSecond()).toBeCloseTo(10, 5);
  });

  it('leaves out intervals that start with less backlog than asked, however many there are', () => {
    const rate = new DrainRate(10_000, 100);
    // A trickle: two records behind at each sample, drained within the interval.
    for (let t = 0; t <= 5_000; t += 100) rate.record(t, { lag: 2, committed: t / 50 });
    rate.record(5_100, { lag: 7_500, committed: 102 });
    rate.record(6_100, { lag: 3_500, committed: 4_102 });
    rate.record(7_100, { lag: 7_400, committed: 8_102 });
    expect(rate.perSecond()).toBeCloseTo(4_000, 5);
  });
});
