import { LoopBusy } from './loop-busy';

describe('LoopBusy', () => {
  it('answers how busy the loop was since the previous reading', async () => {
    const loop = new LoopBusy();
    const until = Date.now() + 60;
    while (Date.now() < until); // busy
    expect(loop.next()).toBeGreaterThan(0.8);
    await new Promise((resolve) => setTimeout(resolve, 60)); // idle
    expect(loop.next()).toBeLessThan(0.5);
  });
});
