/** Long-running server-side operations (reindex, delete by query) run as Elasticsearch tasks. */
import type { Client } from '@elastic/elasticsearch';

export interface TaskStatus {
  readonly completed: boolean;
  readonly taskId: string;
  /** The task's own status document (counts of deleted, created, ...). */
  readonly status: Record<string, unknown>;
  readonly runTimeNanos: number;
  readonly error?: unknown;
}

export async function taskStatus(client: Client, taskId: string): Promise<TaskStatus> {
  const { body } = await client.tasks.get({ task_id: taskId });
  return {
    completed: Boolean(body.completed),
    taskId,
    status: body.task?.status ?? {},
    runTimeNanos: Number(body.task?.running_time_in_nanos ?? 0),
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
