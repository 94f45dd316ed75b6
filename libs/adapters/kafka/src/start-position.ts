/** Where a consumer group with no committed position starts when it asks for the latest records. */
import type { Admin, SeekEntry } from 'kafkajs';

/**
 * The current end of every partition when the group has committed no offset on the topic, else
 * none. Taken before joining, so records appended once the member is ready are never missed:
 * kafkajs's own "latest" is resolved at the first fetch, some time after the join.
 */
export async function endOffsetsIfNoPosition(admin: Admin, group: string, topic: string): Promise<SeekEntry[]> {
  const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
  if (committed?.partitions.some((p) => Number(p.offset) >= 0)) return [];
  const ends = await admin.fetchTopicOffsets(topic);
  return ends.map(({ partition, high }) => ({ partition, offset: high }));
}
