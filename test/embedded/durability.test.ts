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

function ownershipProposal(urn: string, async: boolean) {
  return {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'ownership',
      aspect: { value: JSON.stringify({ owners: [{ owner: OWNER, type: 'DATAOWNER' }], lastModified: { time: 1, actor: OWNER } }), contentType: 'application/json' },
    },
    ...(async ? { async: 'true' } : {}),
  };
}

embeddedOnly('durability on the embedded engine', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-durability-'));
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    if (service) await killHard(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across kill -9', async () => {
    service = await startService({ DATA_DIR: dataDir });
    const base = service.baseUrl;
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const writer = async (w: number) => {
      while (!stop) {
        const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,crash_${w}_${n++},PROD)`;
        const async = n % 4 === 0;
        try {
          if ((await post(base, '/aspects?action=ingestProposal', ownershipProposal(urn, async))) === 200) acknowledged.push(urn);
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 2000));
    await killHard(service);
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(100);

    service = await startService({ DATA_DIR: dataDir });
    const missing: string[] = [];
    for (const urn of acknowledged) {
      let found = false;
      for (let i = 0; i < 100 && !found; i++) {
        const res = await fetch(`${service.baseUrl}/entitiesV2/${encodeURIComponent(urn)}?aspects=List(ownership)`);
        const body = (await res.json()) as { aspects: { ownership?: unknown } };
        found = body.aspects.ownership !== undefined;
        if (!found) await new Promise((r) => setTimeout(r, 50));
      }
      if (!found) missing.push(urn);
    }
    expect(missing).toEqual([]);

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
  }, 90_000);
});
