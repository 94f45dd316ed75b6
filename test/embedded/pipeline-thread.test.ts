/**
 * The embedded catalog's pipeline thread: the API thread's writes reach it and are answered once
 * applied; a thread that stops (as a crash would stop it) is started again on the same files, and a
 * write queued before it stopped is applied by the new one. Embedded only: it reaches into the
 * catalog it starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startEmbeddedCatalog, type RunningCatalog } from '../../services/standalone/src/embedded-catalog';
import { configFromEnv } from '../../services/standalone/src/config';

const embeddedOnly = process.env.CAIRN_BASE_URL ? describe.skip : describe;
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,pipeline_thread,PROD)';

function statusProposal(removed: boolean, async = false) {
  return {
    proposal: { entityType: 'dataset', entityUrn: URN, changeType: 'UPSERT', aspectName: 'status', aspect: { value: JSON.stringify({ removed }), contentType: 'application/json' } },
    ...(async ? { async: 'true' } : {}),
  };
}

embeddedOnly('the embedded pipeline thread', () => {
  let dataDir = '';
  let catalog: RunningCatalog | undefined;
  let base = '';
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-pipeline-thread-'));
    catalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir }));
    base = `http://127.0.0.1:${catalog.port}`;
  });
  afterAll(async () => {
    await catalog?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ingest = async (body: unknown) => (await fetch(`${base}/aspects?action=ingestProposal`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status;
  const removed = async () => {
    const res = await fetch(`${base}/entitiesV2/${encodeURIComponent(URN)}?aspects=List(status)`);
    return res.status === 200 ? ((await res.json()) as { aspects: { status?: { value: { removed: boolean } } } }).aspects.status?.value.removed : undefined;
  };

  it('answers a synchronous write once applied: the API thread reads it at once', async () => {
    expect(await ingest(statusProposal(false))).toBe(200);
    expect(await removed()).toBe(false);
  });

  it('is started again when it stops, and the new one applies what was queued and takes writes', async () => {
    // Failure injection: stop the thread under the catalog, as a crash would.
    const thread = (catalog!.pipeline as unknown as { worker: Worker | undefined });
    const stopped = thread.worker!;
    expect(await ingest(statusProposal(true, true))).toBe(200);
    await stopped.terminate();
    const deadline = Date.now() + 20_000;
    while (thread.worker === undefined || thread.worker === stopped) {
      if (Date.now() > deadline) throw new Error('the pipeline thread was not started again');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The queued write is applied whether the old thread got to it or the new one did.
    while ((await removed()) !== true) {
      if (Date.now() > deadline) throw new Error('the queued write was not applied');
      await new Promise((r) => setTimeout(r, 50));
    }
    let status = 0;
    while ((status = await ingest(statusProposal(false))) !== 200) {
      expect(status).toBe(503);
      if (Date.now() > deadline) throw new Error('no write was taken after the restart');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await removed()).toBe(false);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
