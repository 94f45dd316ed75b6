/**
 * kill -9 during a heavy ingest, then restart: every acknowledged write is there, queued ones
 * are applied, and the indexes catch up. Embedded only: it owns the process it kills.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killHard, startService, type ServiceProcess } from '../support/process';

const embeddedOnly = process.env.CAIRN_BASE_URL ? describe.skip : describe;
const OWNER = 'urn:li:corpuser:durability_owner';

async function post(base: string, path: string, body: unknown): Promise<number> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
}

function ownershipProposal(urn: string, time: number, async: boolean) {
  return {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'ownership',
      aspect: { value: JSON.stringify({ owners: [{ owner: OWNER, type: 'DATAOWNER' }], lastModified: { time, actor: OWNER } }), contentType: 'application/json' },
    },
    ...(async ? { async: 'true' } : {}),
  };
}

embeddedOnly('durability on the embedded engine', () => {
  // Made in beforeAll, not here: a skipped suite's body still runs, and its hooks do not.
  let dataDir = '';
  let service: ServiceProcess | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-durability-'));
  });
  afterAll(async () => {
    if (service) await killHard(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across kill -9', async () => {
    service = await startService({ DATA_DIR: dataDir });
    const base = service.baseUrl;
    // Each dataset's ownership is written twice, so the batches a restart delivers again hold
    // superseded proposals, which must not add versions. Per URN: the last acknowledged write.
    const acknowledgedTime = new Map<string, number>();
    let stop = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!stop) {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${w}_${n++},PROD)`;
        const async = n % 4 === 0;
        for (const time of [1, 2]) {
          try {
            if ((await post(base, '/aspects?action=ingestProposal', ownershipProposal(urn, time, async))) !== 200) break;
            acknowledgedTime.set(urn, time);
          } catch {
            return; // the connection died with the process
          }
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 2000));
    await killHard(service);
    stop = true;
    await Promise.all(writers);
    const acknowledged = [...acknowledgedTime.keys()];
    expect(acknowledged.length).toBeGreaterThan(100);

    service = await startService({ DATA_DIR: dataDir });
    const versionTime = async (urn: string, version: number) => {
      const res = await fetch(`${service!.baseUrl}/aspects/${encodeURIComponent(urn)}?aspect=ownership&version=${version}`);
      return res.status === 404 ? undefined : ((await res.json()) as any).aspect['com.linkedin.common.Ownership'].lastModified.time as number;
    };
    const missing: string[] = [];
    const wrongHistory: unknown[] = [];
    for (const urn of acknowledged) {
      let latest: number | undefined;
      for (let i = 0; i < 100 && (latest ?? 0) < acknowledgedTime.get(urn)!; i++) {
        latest = await versionTime(urn, 0);
        if ((latest ?? 0) < acknowledgedTime.get(urn)!) await new Promise((r) => setTimeout(r, 50));
      }
      if ((latest ?? 0) < acknowledgedTime.get(urn)!) missing.push(urn);
      // Two writes make at most one earlier version: the first, under the second.
      const history = [latest, await versionTime(urn, 1), await versionTime(urn, 2)];
      const expected = latest === 2 ? [2, 1, undefined] : [1, undefined, undefined];
      if (JSON.stringify(history) !== JSON.stringify(expected)) wrongHistory.push({ urn, history });
    }
    expect(missing).toEqual([]);
    expect(wrongHistory).toEqual([]);

    // The graph index catches up: every acknowledged dataset has its OwnedBy edge.
    const deadline = Date.now() + 20_000;
    let total = 0;
    while (Date.now() < deadline) {
      const res = await fetch(`${service.baseUrl}/relationships?urn=${encodeURIComponent(OWNER)}&direction=INCOMING&types=OwnedBy&count=0`);
      total = ((await res.json()) as { total: number }).total;
      if (total >= acknowledged.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(total).toBeGreaterThanOrEqual(acknowledged.length);

    // So does the search index: every acknowledged dataset is found by its owner.
    const search = async () => {
      const res = await fetch(`${service!.baseUrl}/entities?action=search`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ entity: 'dataset', input: '*', filter: { or: [{ and: [{ field: 'owners', value: OWNER }] }] }, start: 0, count: 0 }),
      });
      return ((await res.json()) as { value: { numEntities: number } }).value.numEntities;
    };
    let found = await search();
    while (found < acknowledged.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      found = await search();
    }
    expect(found).toBeGreaterThanOrEqual(acknowledged.length);
  }, 120_000);
});
