/**
 * kafkajs 2.2.4, its latest release, re-arms a timer in every connection's request queue each
 * millisecond while no request waits (tulios/kafkajs#1556 and #1704; the fix, #1667, is not
 * released): a pending check with nothing pending schedules the next one at a negative delay. Each
 * consumer, producer and admin connection so woke its process about a thousand times a second, and
 * each service spent about 0.05 of a core idle (strace: 10,247 epoll waits in 10 s of an idle
 * timeseries-indexer). Here the check is scheduled only while requests wait, as the fix does; a
 * request that cannot go at once is queued by `push`, which schedules it, and a completed request
 * checks the queue again.
 */

/** The part of kafkajs's RequestQueue (src/network/requestQueue) the fix touches. */
export interface KafkaRequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's own delay for a queue held by its in-flight limit rather than a throttle. */
const CHECK_PENDING_MS = 10;

function scheduleCheckPendingRequests(this: KafkaRequestQueue): void {
  if (this.pending.length === 0 || this.throttleCheckTimeoutId) return;
  const untilThrottleEnds = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    untilThrottleEnds > 0 ? untilThrottleEnds : CHECK_PENDING_MS,
  );
}

/** kafkajs's RequestQueue class, from inside the package (it is not exported). */
export function kafkaRequestQueueClass(): { prototype: KafkaRequestQueue } & (new (options: Record<string, unknown>) => KafkaRequestQueue) {
  return require('kafkajs/src/network/requestQueue');
}

/** Fixes every request queue kafkajs makes in this process; calling it again changes nothing. */
export function quietIdleRequestQueues(): void {
  kafkaRequestQueueClass().prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
}
