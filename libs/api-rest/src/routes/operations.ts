/**
 * `/operations` (also `/gms/operations`, `/api/gms/operations`): time-series truncation with task
 * status, index restore and rebuild from the store, index sizes.
 */
import { Router, type Request } from 'express';
import { badRequest, notFound, parseBoolParam } from '@cairn/core';
import type { CatalogContext } from '../context';
import { actions, body, optionalInt, optionalString, requireString, type ActionTable } from '../http';
import { LocalTasks } from '../local-tasks';

const DEFAULT_TRUNCATE_BATCH = 10_000;
const DEFAULT_RESTORE_BATCH = 10;
const MAX_BATCH = 100_000;
const TASK_ID = /^[a-zA-Z0-9-_]+:[0-9]+$/;

function batchSize(params: Record<string, unknown>, fallback: number): number {
  const n = optionalInt(params, 'batchSize') ?? fallback;
  if (n < 1 || n > MAX_BATCH) throw badRequest(`Parameter 'batchSize' must be between 1 and ${MAX_BATCH}, got ${n}`);
  return n;
}

/** The reference's dry-run report: a delete by query, or a reindex when most rows would go. */
export function truncateDryRunText(matching: number, total: number): string {
  const pct = total === 0 ? 0 : (100 * matching) / total;
  const how = matching > total / 2 ? 'Reindexing the aspect without the deleted records. ' : 'Issuing a delete by query request. ';
  return `Delete ${matching} out of ${total} rows (${pct.toFixed(2)}%). ${how}This was a dry run. Run with dryRun = false to execute.`;
}

/** `restoreIndices(aspect?, urn?, urnLike?, start=0, batchSize=10)`, also served under `/aspects`. */
export function restoreIndicesAction(ctx: CatalogContext) {
  return async (req: Request) => {
    const params = body(req);
    const start = optionalInt(params, 'start') ?? 0;
    if (start < 0) throw badRequest(`Parameter 'start' must not be negative, got ${start}`);
    const aspect = optionalString(params, 'aspect') || undefined;
    const urn = optionalString(params, 'urn') || undefined;
    const urnLike = optionalString(params, 'urnLike') || undefined;
    const size = batchSize(params, DEFAULT_RESTORE_BATCH);
    const r = await ctx.indexRestorer.restore({ ...(aspect ? { aspect } : {}), ...(urn ? { urn } : {}), ...(urnLike ? { urnLike } : {}), start, batchSize: size });
    return (
      `RestoreIndicesResult(args=RestoreIndicesArgs(start=${start}, batchSize=${size}, aspectName=${aspect ?? null}, ` +
      `urn=${urn ?? null}, urnLike=${urnLike ?? null}), ignored=${r.ignored}, rowsMigrated=${r.rowsMigrated}, ` +
      `timeSqlQueryMs=${r.timeSqlQueryMs}, sendMessageMs=${r.sendMessageMs})`
    );
  };
}

export function operationsActions(ctx: CatalogContext): ActionTable {
  const tasks = new LocalTasks();
  return {
    truncateTimeseriesAspect: async (req) => {
      const params = body(req);
      const entityType = requireString(params, 'entityType');
      const entity = ctx.registry.entity(entityType);
      if (!entity) throw badRequest(`Unknown entity type '${entityType}'`);
      const aspectName = requireString(params, 'aspect');
      const aspect = entity.aspects.get(aspectName);
      if (!aspect || aspect.kind !== 'timeseries') throw badRequest(`'${aspectName}' is not a time-series aspect of ${entity.name}`);
      const endTimeMillis = optionalInt(params, 'endTimeMillis');
      if (endTimeMillis === undefined) throw badRequest("Parameter 'endTimeMillis' is required");
      const timeoutSeconds = optionalInt(params, 'timeoutSeconds');
      if (timeoutSeconds !== undefined && timeoutSeconds < 0) throw badRequest("Parameter 'timeoutSeconds' must not be negative");
      const size = batchSize(params, DEFAULT_TRUNCATE_BATCH);
      if (parseBoolParam(params.dryRun, 'dryRun', true)) {
        const { matching, total } = await ctx.timeseries.countOlderThan(entity.name, aspect.name, endTimeMillis);
        return truncateDryRunText(matching, total);
      }
      return ctx.timeseries.startDeleteOlderThan(entity.name, aspect.name, endTimeMillis, { batchSize: size, ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}) });
    },
    getEsTaskStatus: async (req) => {
      const params = body(req);
      const nodeId = optionalString(params, 'nodeId');
      const taskNumber = params.taskId === undefined || params.taskId === null ? undefined : String(params.taskId);
      const task = optionalString(params, 'task') ?? (nodeId && taskNumber ? `${nodeId}:${taskNumber}` : undefined);
      if (!task) throw badRequest("Give either 'task' (<nodeId>:<taskNumber>) or both 'nodeId' and 'taskId'");
      if (!TASK_ID.test(task)) throw badRequest(`Task id '${task}' must look like <nodeId>:<taskNumber>`);
      const status = tasks.get(task) ?? (await ctx.timeseries.task(task));
      if (!status) throw notFound(`No task ${task}`);
      return JSON.stringify({ completed: status.completed, taskId: status.taskId, status: status.status, runTimeNanos: status.runTimeNanos });
    },
    getIndexSizes: async () => ({ indexSizes: await ctx.timeseries.sizes() }),
    restoreIndices: restoreIndicesAction(ctx),
    rebuildIndices: async () => {
      // Together: the embedded search index clears on its writer thread while the graph clears here.
      await Promise.all([ctx.search.clearForRebuild(), ctx.graph.clearForRebuild()]);
      return tasks.start(async (update) => {
        try {
          const done = await ctx.indexRestorer.restoreAll((p) => update({ phase: 'restoring', ...p }));
          update({ phase: 'finishing', ...done });
          return { phase: 'done', ...done };
        } finally {
          // Also when the rebuild failed: what it indexed becomes whole.
          await ctx.indexRestorer.finish(async () => void (await Promise.all([ctx.search.rebuilt(), ctx.graph.rebuilt()])));
        }
      });
    },
  };
}

export function operationsRouter(ctx: CatalogContext): Router {
  const router = Router();
  router.post('/operations', actions('operations', operationsActions(ctx)));
  return router;
}
