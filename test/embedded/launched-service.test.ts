/**
 * The catalog as `npm start` runs it: through the launcher, from bundles (libs/launcher), here in a
 * bundle folder outside the repository (`CAIRN_BUNDLE_CACHE`). What a bundle could lose against the
 * source it came from: the worker threads (search), and the files found from a module's own folder
 * (GraphiQL's assets in the installed packages).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killHard, startService, type ServiceProcess } from '../support/process';

const embeddedOnly = process.env.CAIRN_BASE_URL ? describe.skip : describe;
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,launched.bundle_probe,PROD)';

embeddedOnly('the launched embedded catalog', () => {
  // Made in beforeAll, not here: a skipped suite's body still runs, and its hooks do not.
  let temp = '';
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'cairn-launched-'));
    service = await startService({ DATA_DIR: join(temp, 'data'), CAIRN_BUNDLE_CACHE: join(temp, 'bundles') }, 60_000);
  }, 90_000);
  afterAll(async () => {
    if (service) await killHard(service);
    rmSync(temp, { recursive: true, force: true });
  });

  it('indexes and searches on its worker threads', async () => {
    const ingest = await fetch(`${service!.baseUrl}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        proposal: {
          entityType: 'dataset',
          entityUrn: URN,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: { value: JSON.stringify({ description: 'probe of the bundled search threads' }), contentType: 'application/json' },
        },
      }),
    });
    expect(ingest.status).toBe(200);
    let urns: string[] = [];
    for (let tries = 0; tries < 100 && urns.length === 0; tries++) {
      const res = await fetch(`${service!.baseUrl}/entities?action=search`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ entity: 'dataset', input: 'bundled', start: 0, count: 10 }),
      });
      expect(res.status).toBe(200);
      urns = ((await res.json()) as { value: { metadata: { urns: string[] } } }).value.metadata.urns;
      if (urns.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(urns).toEqual([URN]);
  });

  it("serves GraphiQL's assets from the installed packages", async () => {
    for (const [asset, type] of [['react.js', 'text/javascript'], ['graphiql.css', 'text/css']]) {
      const res = await fetch(`${service!.baseUrl}/api/graphiql/assets/${asset}`);
      expect([asset, res.status, res.headers.get('content-type')?.split(';')[0]]).toEqual([asset, 200, type]);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });
});
