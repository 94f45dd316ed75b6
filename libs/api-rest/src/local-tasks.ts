/**
 * Long operations this process runs in the background (a full index rebuild), named like the search
 * engine's tasks (`<node>:<number>`) so one status action reports both.
 */
import type { IndexTask } from '@cairn/ports';

export const API_NODE_ID = 'cairn-api';
const KEPT_TASKS = 100;

export class LocalTasks {
  private readonly tasks = new Map<string, IndexTask>();
  private seq = 0;

  /** Starts `run`, which reports progress through `update`; a failure completes the task with the error. */
  start(run: (update: (status: Record<string, unknown>) => void) => Promise<Record<string, unknown>>): string {
    const taskId = `${API_NODE_ID}:${++this.seq}`;
    const started = process.hrtime.bigint();
    const record = (completed: boolean, status: Record<string, unknown>) => {
      this.tasks.delete(taskId);
      this.tasks.set(taskId, { taskId, completed, status, runTimeNanos: Number(process.hrtime.bigint() - started) });
      if (this.tasks.size > KEPT_TASKS) this.tasks.delete(this.tasks.keys().next().value as string);
    };
    record(false, {});
    run((status) => record(false, status)).then(
      (status) => record(true, status),
      (err: unknown) => record(true, { error: String((err as Error)?.message ?? err) }),
    );
    return taskId;
  }

  get(taskId: string): IndexTask | undefined {
    return this.tasks.get(taskId);
  }
}
