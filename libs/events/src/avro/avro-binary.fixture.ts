/** Hand-written Avro binary, for tests that check the wire bytes independently of avsc. */

/** A zigzag varint `long` (also used for ints, union indexes, enum indexes and lengths). */
export function long(n: number | bigint): number[] {
  const v = BigInt(n);
  let z = v >= 0n ? v * 2n : -v * 2n - 1n;
  const out: number[] = [];
  while (z > 0x7fn) {
    out.push(Number((z & 0x7fn) | 0x80n));
    z >>= 7n;
  }
  out.push(Number(z));
  return out;
}

export function bytes(b: Uint8Array): number[] {
  return [...long(b.length), ...b];
}

export function str(s: string): number[] {
  return bytes(Buffer.from(s, 'utf8'));
}
