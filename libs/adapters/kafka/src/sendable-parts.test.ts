import { sendableParts } from './sendable-parts';

const message = (key: string, bytes: number) => ({ key, value: Buffer.alloc(bytes) });

it('cuts messages into runs under the bound, in order, a larger message alone', () => {
  const messages = [message('a', 40), message('b', 40), message('c', 30), message('d', 150), message('e', 10)];
  const parts = sendableParts(messages, 100);
  expect(parts.map((p) => p.map((m) => m.key))).toEqual([['a', 'b'], ['c'], ['d'], ['e']]);
  expect(parts.flat()).toEqual(messages);
});

it('counts keys and headers with the value', () => {
  const withHeaders = { key: 'k'.repeat(20), value: Buffer.alloc(50), headers: { actor: 'x'.repeat(20) } };
  expect(sendableParts([withHeaders, withHeaders], 190)).toHaveLength(1);
  expect(sendableParts([withHeaders, withHeaders], 180)).toHaveLength(2);
});

it('sends nothing for no messages', () => {
  expect(sendableParts([], 100)).toEqual([]);
});
