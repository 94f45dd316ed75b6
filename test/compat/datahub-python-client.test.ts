/**
 * The reference's own Python client (acryl-datahub 0.10.4.x) against this service, unchanged:
 * REST emitter and graph client, `datahub ingest` with a file source and the REST sink,
 * `datahub get` and `datahub delete`. Install it with test/compat/install-python-client.sh.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLES_DIR } from '../support/samples';
import { call, enc, startTarget, unique, type Target } from '../support/target';

const VENV = process.env.CAIRN_PY_VENV ?? join(process.env.CAIRN_CACHE ?? join(homedir(), '.cache/cairn'), 'py/venv');
const installed = existsSync(join(VENV, 'bin/datahub'));
if (!installed && process.env.CAIRN_REQUIRE_PYTHON_CLIENT === 'true') {
  throw new Error(`The reference Python client is required but missing from ${VENV}: run test/compat/install-python-client.sh`);
}
const withClient = installed ? describe : describe.skip;

let t: Target;
let home: string;
beforeAll(async () => {
  t = await startTarget();
  home = mkdtempSync(join(tmpdir(), 'cairn-py-home-'));
});
afterAll(() => t?.close());

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(join(VENV, 'bin', cmd), args, { env: { ...process.env, HOME: home, DATAHUB_GMS_URL: t.baseUrl, DATAHUB_TELEMETRY_ENABLED: 'false' }, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

withClient('the reference Python client', () => {
  it('emits with the REST emitter and reads back with the graph client', async () => {
    const name = unique('sdk');
    const r = await run('python', [join(__dirname, 'sdk_round_trip.py'), t.baseUrl, name]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out.trim().split('\n').pop() as string);
    expect(result).toEqual({ description: 'from python', customProperties: { team: 'sdk' }, owners: ['urn:li:corpuser:jdoe'], exists: true });
  }, 120_000);

  it('ingests a sample file with `datahub ingest` (file source, REST sink) without failures', async () => {
    const recipe = join(home, 'recipe.yml');
    writeFileSync(recipe, `source:\n  type: file\n  config:\n    path: ${join(SAMPLES_DIR, 'bootstrap_mce.json')}\nsink:\n  type: datahub-rest\n  config:\n    server: ${t.baseUrl}\n`);
    const r = await run('datahub', ['ingest', '-c', recipe]);
    expect(r.out).toMatch(/Pipeline finished successfully/);
    expect(r.out).toMatch(/'total_records_written': 101/);
    expect(r.code).toBe(0);
    const hive = await call(t, 'GET', `/entitiesV2/${enc('urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)')}?aspects=List(schemaMetadata)`);
    expect(hive.body.aspects.schemaMetadata.value.fields.length).toBeGreaterThan(0);
  }, 180_000);

  it('reads with `datahub get` and deletes with `datahub delete` (soft and hard)', async () => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${unique('cli')},PROD)`;
    await call(t, 'POST', '/aspects?action=ingestProposal', {
      proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'datasetProperties', aspect: { value: JSON.stringify({ description: 'cli' }), contentType: 'application/json' } },
    });
    const get = await run('datahub', ['get', '--urn', urn, '-a', 'datasetProperties']);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.out.slice(get.out.indexOf('{')))).toEqual({ datasetProperties: { description: 'cli' } });
    const soft = await run('datahub', ['delete', '--urn', urn, '-f']);
    expect(soft.out).toMatch(/Soft deleted 1 entities/);
    expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(status)`)).body.aspects.status.value).toEqual({ removed: true });
    const hard = await run('datahub', ['delete', '--urn', urn, '--hard', '-f']);
    expect(hard.out).toMatch(/Hard deleted 1 entities/);
    expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: false });
  }, 120_000);
});
