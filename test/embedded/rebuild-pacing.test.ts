/**
 * A full index rebuild paces its change logs by the indexers' progress: writes sent during it are
 * admitted (a rebuild that flooded the log had every write refused with 429 until it was done),
 * and the rebuilt index holds every entity, those written during the rebuild included.
 * Embedded only: it configures the service's backpressure bound itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '../../services/standalone/src/config';
import { startEmbeddedCatalog, type RunningCatalog } from '../../services/standalone/src/embedded-catalog';
import { action, entities, indexed } from '../support/search';
import { call, proposal, type Target } from '../support/target';

const embeddedOnly = process.env.CAIRN_BASE_URL ? describe.skip : describe;
const BEFORE = 3000;
const MAX_INDEX_LAG = 1000;
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,pacing.${name},PROD)`;

async function open(dataDir: string, env: Record<string, string>): Promise<{ catalog: RunningCatalog; t: Target }> {
  const catalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir, ...env }));
  return { catalog, t: { baseUrl: `http://127.0.0.1:${catalog.port}`, authHeaders: {}, close: () => catalog.close() } };
}

const datasetCount = async (t: Target) => (await entities<{ numEntities: number }>(t, 'search', { entity: 'dataset', input: '*', start: 0, count: 0 })).numEntities;

embeddedOnly('a full index rebuild', () => {
  // Made in beforeAll, not here: a skipped suite's body still runs, and its hooks do not.
  let dataDir = '';
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cairn-rebuild-pacing-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves room for writes while it runs, and indexes them too', async () => {
    // A catalog several times the bound, written with the default bound.
    const loading = await open(dataDir, {});
    try {
      for (let from = 0; from < BEFORE; from += 250) {
        const proposals = Array.from({ length: 250 }, (_, i) => proposal(dataset(`before_${from + i}`), 'status', { removed: false }).proposal);
        expect((await call(loading.t, 'POST', '/aspects?action=ingestProposalBatch', { proposals })).status).toBe(200);
      }
      await indexed(async () => expect(await datasetCount(loading.t)).toBe(BEFORE));
    } finally {
      await loading.t.close();
    }

    const { t } = await open(dataDir, { MAX_INDEX_LAG: String(MAX_INDEX_LAG) });
    try {
      const task = await action<string>(t, 'operations', 'rebuildIndices', {});
      const refused: string[] = [];
      let written = 0;
      for (;;) {
        const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(dataset(`during_${written}`), 'status', { removed: false }));
        if (res.status === 200) written++;
        else refused.push(`${res.status} ${JSON.stringify(res.body)}`);
        const status = JSON.parse(await action<string>(t, 'operations', 'getEsTaskStatus', { task }));
        if (status.completed) {
          expect(status.status).toMatchObject({ phase: 'done' });
          // Counted when it started; entities written since are restored too when the scan reaches them.
          expect(status.status.restored).toBeGreaterThanOrEqual(status.status.total);
          break;
        }
      }
      expect(refused).toEqual([]);
      // The rebuild took long enough for writes to be sent during it.
      expect(written).toBeGreaterThan(1);
      await indexed(async () => expect(await datasetCount(t)).toBe(BEFORE + written));
    } finally {
      await t.close();
    }
  }, 120_000);
});
