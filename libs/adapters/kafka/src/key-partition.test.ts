import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { keyPartition, murmur2 } from './key-partition';

// kafkajs's own hash, the Java client's, through its 64-bit arithmetic.
const javaMurmur2 = require('kafkajs/src/producer/partitioners/default/murmur2') as (key: Buffer) => number;

function keys(): string[] {
  const out = ['', 'a', 'ab', 'abc', 'abcd', 'urn:li:corpuser:datahub', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)', 'ünïcödé ✓ 漢字 🎉'];
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) | 0;
    const length = (seed >>> 8) % 120;
    out.push(Array.from({ length }, (_, j) => String.fromCodePoint(32 + ((seed >>> (j % 16)) + j * 31) % (j % 7 === 0 ? 3000 : 95))).join(''));
  }
  return out;
}

describe('key partitions', () => {
  it('hash as the Java client does', () => {
    for (const key of keys()) expect([key, murmur2(Buffer.from(key, 'utf8'))]).toEqual([key, javaMurmur2(Buffer.from(key, 'utf8'))]);
  });

  it('are the partitions kafkajs\'s default partitioner chooses', () => {
    const partitioner = Partitioners.DefaultPartitioner();
    for (const count of [1, 3, 7, 12]) {
      const partitionMetadata = Array.from({ length: count }, (_, i) => ({ partitionId: i, leader: 0 }) as PartitionMetadata);
      for (const key of keys()) expect([key, keyPartition(key, count)]).toEqual([key, partitioner({ topic: 't', partitionMetadata, message: { key, value: null } })]);
    }
  });
});
