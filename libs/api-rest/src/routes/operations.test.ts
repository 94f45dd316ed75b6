import type { Request } from 'express';
import type { RestoreProgress } from '@cairn/pipeline';
import type { CatalogContext } from '../context';
import { operationsActions } from './operations';

/** A promise the test settles. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/**
 * The rebuild's task against stand-ins of the indexes and the restorer: what the route does is the
 * order of their steps and the phases it reports, which the HTTP tests only see when timing allows.
 */
function rebuildHarness(restoreAll: (onProgress: (p: RestoreProgress) => void) => Promise<RestoreProgress>) {
  const steps: string[] = [];
  const finishing = deferred();
  const ctx = {
    search: { clearForRebuild: async () => void steps.push('search cleared'), rebuilt: async () => void steps.push('search rebuilt') },
    graph: { clearForRebuild: async () => void steps.push('graph cleared'), rebuilt: async () => void steps.push('graph rebuilt') },
    indexRestorer: {
      restoreAll,
      finish: async (work: () => Promise<void>) => {
        steps.push('finish begun');
        await finishing.promise;
        await work();
      },
    },
    timeseries: { task: async () => undefined },
  } as unknown as CatalogContext;
  const table = operationsActions(ctx);
  const call = (action: string, body?: Record<string, unknown>) => table[action]!({ body } as Request, undefined as never);
  const status = async (task: string) => JSON.parse((await call('getEsTaskStatus', { task })) as string) as { completed: boolean; status: Record<string, unknown> };
  return { steps, finishing, call, status };
}

/** Lets the task's promise chain run up to its next wait. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('rebuildIndices task', () => {
  it('reports restoring, then finishing while the indexes are made whole, then done', async () => {
    const restoring = deferred<RestoreProgress>();
    const h = rebuildHarness(async (onProgress) => {
      onProgress({ total: 3, restored: 1 });
      return restoring.promise;
    });
    const task = (await h.call('rebuildIndices')) as string;
    expect(h.steps).toEqual(['search cleared', 'graph cleared']);
    expect(await h.status(task)).toMatchObject({ completed: false, status: { phase: 'restoring', total: 3, restored: 1 } });

    restoring.resolve({ total: 3, restored: 3 });
    await settle();
    expect(await h.status(task)).toMatchObject({ completed: false, status: { phase: 'finishing', total: 3, restored: 3 } });
    expect(h.steps).toEqual(['search cleared', 'graph cleared', 'finish begun']);

    h.finishing.resolve();
    await settle();
    expect(h.steps.slice(3).sort()).toEqual(['graph rebuilt', 'search rebuilt']);
    expect(await h.status(task)).toMatchObject({ completed: true, status: { phase: 'done', total: 3, restored: 3 } });
  });

  it('still makes the indexes whole when the restore fails, and completes with the error', async () => {
    const h = rebuildHarness(async () => {
      throw new Error('store unreadable');
    });
    const task = (await h.call('rebuildIndices')) as string;
    await settle();
    expect(h.steps).toContain('finish begun');
    expect(await h.status(task)).toMatchObject({ completed: false });

    h.finishing.resolve();
    await settle();
    expect(h.steps).toEqual(expect.arrayContaining(['search rebuilt', 'graph rebuilt']));
    expect(await h.status(task)).toEqual(expect.objectContaining({ completed: true, status: { error: 'store unreadable' } }));
  });
});
