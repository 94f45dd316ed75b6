/**
 * How many records one produce request may carry: a request's records for a partition form one
 * batch, which the broker refuses past its message.max.bytes (1 MB by default) with
 * MESSAGE_TOO_LARGE, so a large append is sent as several requests, in order.
 */
import type { Message } from 'kafkajs';

/** Well under the broker's default message.max.bytes. */
export const MAX_SEND_BYTES = 512 * 1024;

function sizeOf(message: Message): number {
  const length = (v: Message['key'] | Message['value']) => (v === null || v === undefined ? 0 : Buffer.byteLength(v as string | Buffer));
  const headers = Object.entries(message.headers ?? {}).reduce((n, [k, v]) => n + k.length + length(v as string | Buffer | undefined), 0);
  return length(message.key) + length(message.value) + headers;
}

/** Consecutive runs of the messages of at most `max` bytes each (a larger message alone). */
export function sendableParts<M extends Message>(messages: readonly M[], max = MAX_SEND_BYTES): M[][] {
  const parts: M[][] = [];
  let part: M[] = [];
  let bytes = 0;
  for (const m of messages) {
    const size = sizeOf(m);
    if (part.length && bytes + size > max) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(m);
    bytes += size;
  }
  if (part.length) parts.push(part);
  return parts;
}
