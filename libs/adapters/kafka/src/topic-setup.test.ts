import type { Admin } from 'kafkajs';
import { ensureTopic } from './topic-setup';

/** An admin that has the topic and names its leader, and lists its offsets only from the given attempt on. */
function adminListingOffsetsFrom(attempt: number, failure: Error): { admin: Admin; attempts: () => number } {
  let attempts = 0;
  const admin = {
    listTopics: async () => ['t'],
    fetchTopicMetadata: async () => ({ topics: [{ name: 't', partitions: [{ partitionId: 1, leader: 0 }, { partitionId: 0, leader: 0 }] }] }),
    fetchTopicOffsets: async () => {
      if (++attempts < attempt) throw failure;
      return [];
    },
  } as unknown as Admin;
  return { admin, attempts: () => attempts };
}

describe('ensureTopic', () => {
  it('waits while the leader cannot list the offsets yet, whatever error kafkajs makes of it', async () => {
    // kafkajs turns "This server does not host this topic-partition" into a TypeError of its own.
    const { admin, attempts } = adminListingOffsetsFrom(3, new TypeError("Cannot destructure property 'partitions' of 'low.pop(...)' as it is undefined."));
    const partitions = await ensureTopic(admin, { topic: 't' });
    expect(partitions.map((p) => p.partitionId)).toEqual([0, 1]);
    expect(attempts()).toBe(3);
  });
});
