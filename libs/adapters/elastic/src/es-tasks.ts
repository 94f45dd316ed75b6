/** Long-running server-side operations (reindex, delete by query) run as Elasticsearch tasks. */
import type { Client } from '@elastic/elasticsearch';

export interface TaskStatus {
  readonly completed: boolean;
  readonly taskId: string;
  /** The task's own status document (counts of deleted, created, ...). */
  readonly status: Record<string, unknown>;
  readonly runTimeNanos: number;
  readonly error?: unknown;
  /** The headers the task was started with (`X-Opaque-Id`, ...). */
  readonly headers: Record<string, string>;
  /** Whether a completed bulk-by-scroll task reports a request of it as timed out. */
  readonly timedOut: boolean;
  /**
   * Whether the task was cancelled. Elasticsearch says so in the status, in the stored response or
   * as the task's error, depending on when the cancellation reached it.
   */
  readonly canceled: boolean;
}

export async function taskStatus(client: Client, taskId: string): Promise<TaskStatus> {
  const { body } = await client.tasks.get({ task_id: taskId });
  return {
    completed: Boolean(body.completed),
    taskId,
    status: body.task?.status ?? {},
    runTimeNanos: Number(body.task?.running_time_in_nanos ?? 0),
    headers: body.task?.headers ?? {},
    timedOut: body.response?.timed_out === true,
    canceled: body.task?.status?.canceled !== undefined || body.response?.canceled !== undefined || body.error?.type === 'task_cancelled_exception',
    ...(body.error ? { error: body.error } : body.response?.failures?.length ? { error: body.response.failures } : {}),
  };
}

/** Polls a task until it completes; throws when it failed. */
export async function waitForTask(client: Client, taskId: string, pollMs = 250): Promise<TaskStatus> {
  for (;;) {
    const status = await taskStatus(client, taskId);
    if (status.completed) {
      if (status.error) throw new Error(`Elasticsearch task ${taskId} failed: ${JSON.stringify(status.error)}`);
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
