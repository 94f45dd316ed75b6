/**
 * The partition of a keyed record as the Java client's default partitioner chooses it (murmur2 of
 * the key's UTF-8 bytes, made positive, modulo the partition count), so that every client
 * producing to a topic agrees on each key's partition. kafkajs's own murmur2 multiplies through
 * 64-bit BigInt arithmetic, 7 to 8 µs a URN; 32-bit multiplication gives the same hash in 0.2.
 */

const M = 0x5bd1e995;
const SEED = 0x9747b28c;

export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2]! << 16;
    if (rest >= 2) h ^= data[whole + 1]! << 8;
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

export function keyPartition(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}
