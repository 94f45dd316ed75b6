/** Creating a topic and waiting until every partition has a leader. */
import type { Admin, ITopicConfig, PartitionMetadata } from 'kafkajs';

const READY_TIMEOUT_MS = 30_000;
const POLL_MS = 100;

/**
 * Creates the topic unless it exists (an existing one keeps its partitions) and gives its
 * partitions by id. Asking first spares the broker's "already exists" error, which kafkajs logs.
 */
export async function ensureTopic(admin: Admin, config: ITopicConfig): Promise<PartitionMetadata[]> {
  if (!(await admin.listTopics()).includes(config.topic)) {
    // kafkajs's own wait for leaders fails on "unknown topic" (seen on a broker just started):
    // `partitionsWithLeaders` waits instead, retrying both answers.
    await admin.createTopics({ topics: [config], waitForLeaders: false });
  }
  return partitionsWithLeaders(admin, config.topic);
}

/**
 * A new topic reaches the broker's metadata a moment after its creation: until then the broker
 * answers "unknown topic" or "no leader", both retriable (kafkajs's waitForLeaders only waits
 * out the latter). Even once the metadata names a leader, the leader may still answer "not the
 * leader" or "does not host this topic-partition" for a moment, so a topic is ready when its
 * offsets can be listed; until the deadline, any failure to list them is that moment (kafkajs
 * turns the second answer into a TypeError of its own, seen failing a start in CI).
 */
async function partitionsWithLeaders(admin: Admin, topic: string): Promise<PartitionMetadata[]> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const partitions = topics[0]?.partitions ?? [];
      if (partitions.length && partitions.every((p) => p.leader >= 0) && (await offsetsListed(admin, topic, deadline))) {
        return [...partitions].sort((a, b) => a.partitionId - b.partitionId);
      }
      if (Date.now() > deadline) throw new Error(`Topic ${topic} has partitions without a leader after ${READY_TIMEOUT_MS} ms`);
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether the topic's offsets can be listed yet; past the deadline, why not. */
async function offsetsListed(admin: Admin, topic: string, deadline: number): Promise<boolean> {
  try {
    await admin.fetchTopicOffsets(topic);
    return true;
  } catch (err) {
    if (Date.now() > deadline) throw err;
    return false;
  }
}
