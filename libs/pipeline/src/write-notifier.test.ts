import { RestliError } from '@cairn/core';
import { WriteNotifier } from './write-notifier';

describe('WriteNotifier', () => {
  it('resolves a waiter when its proposal is settled', async () => {
    const n = new WriteNotifier();
    const waiting = n.wait('0:1', 1000);
    expect(n.pending).toBe(1);
    n.settle('0:1', { ok: true, result: { rows: 2 } });
    await expect(waiting).resolves.toEqual({ rows: 2 });
    expect(n.pending).toBe(0);
  });

  it('rejects a waiter with the error of a failed proposal', async () => {
    const n = new WriteNotifier();
    const waiting = n.wait('0:1', 1000);
    const error = new RestliError(422, 'bad value');
    n.settle('0:1', { ok: false, error });
    await expect(waiting).rejects.toBe(error);
  });

  it('answers a waiter that arrives after the proposal was settled, once', async () => {
    const n = new WriteNotifier();
    n.settle('0:1', { ok: true, result: {} });
    n.settle('0:2', { ok: false, error: new RestliError(400, 'nope') });
    await expect(n.wait('0:1', 1000)).resolves.toEqual({});
    await expect(n.wait('0:2', 1000)).rejects.toMatchObject({ status: 400, message: 'nope' });
    expect(n.pending).toBe(0);
    // The early answer is consumed: a second wait has to wait (and here times out).
    await expect(n.wait('0:1', 20)).rejects.toMatchObject({ status: 504 });
  });

  it('settles only the waiter of the settled id', async () => {
    const n = new WriteNotifier();
    let firstDone = false;
    const first = n.wait('0:1', 1000).then(() => (firstDone = true));
    const second = n.wait('0:2', 1000);
    n.settle('0:2', { ok: true, result: {} });
    await second;
    expect(firstDone).toBe(false);
    expect(n.pending).toBe(1);
    n.settle('0:1', { ok: true, result: {} });
    await first;
    expect(firstDone).toBe(true);
  });

  it('times out with 504 and says the proposal will still be applied', async () => {
    const n = new WriteNotifier();
    const started = Date.now();
    const err = await n.wait('0:9', 30).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(err).toBeInstanceOf(RestliError);
    expect((err as RestliError).status).toBe(504);
    expect((err as RestliError).message).toMatch(/0:9 is queued but was not applied within 30 ms; it will still be applied/);
    expect(n.pending).toBe(0);
  });

  it('keeps a settle that comes after the timeout without throwing', async () => {
    const n = new WriteNotifier();
    await expect(n.wait('0:1', 10)).rejects.toMatchObject({ status: 504 });
    expect(() => n.settle('0:1', { ok: true, result: {} })).not.toThrow();
    expect(n.pending).toBe(0);
  });
});
