/**
 * The reference's own Python client (acryl-datahub 0.10.4.x) against this service, unchanged:
 * REST emitter and graph client, `datahub ingest` with a file source and the REST sink,
 * `datahub get` and `datahub delete`; with authentication on, a personal access token given as
 * the client's configuration gives it (DATAHUB_GMS_TOKEN, the recipe's `token`). Install it
 * with test/compat/install-python-client.sh.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLES_DIR } from '../support/samples';
import { AUTH_ENV, bearer, clientToken, createToken, createUser, SYSTEM } from '../support/auth';
import { call, enc, startEmbeddedTarget, startTarget, unique, type Target } from '../support/target';

const VENV = process.env.CAIRN_PY_VENV ?? join(process.env.CAIRN_CACHE ?? join(homedir(), '.cache/cairn'), 'py/venv');
const installed = existsSync(join(VENV, 'bin/datahub'));
if (!installed && process.env.CAIRN_REQUIRE_PYTHON_CLIENT === 'true') {
  throw new Error(`The reference Python client is required but missing from ${VENV}: run test/compat/install-python-client.sh`);
}
const withClient = installed ? describe : describe.skip;

let t: Target;
let token: string | undefined;
let home: string;
beforeAll(async () => {
  t = await startTarget();
  token = await clientToken(t);
  home = mkdtempSync(join(tmpdir(), 'cairn-py-home-'));
});
afterAll(async () => {
  await t?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function runAgainst(target: Target, gmsToken: string | undefined, cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, HOME: home, DATAHUB_GMS_URL: target.baseUrl, DATAHUB_TELEMETRY_ENABLED: 'false', DATAHUB_GMS_TOKEN: gmsToken ?? '' };
  return new Promise((resolve) => {
    execFile(join(VENV, 'bin', cmd), args, { env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const run = (cmd: string, args: string[]) => runAgainst(t, token, cmd, args);

function recipe(target: Target, sinkToken: string | undefined, sample = 'bootstrap_mce.json'): string {
  const file = join(home, `recipe-${unique('r')}.yml`);
  const tokenLine = sinkToken ? `\n    token: ${sinkToken}` : '';
  writeFileSync(file, `source:\n  type: file\n  config:\n    path: ${join(SAMPLES_DIR, sample)}\nsink:\n  type: datahub-rest\n  config:\n    server: ${target.baseUrl}${tokenLine}\n`);
  return file;
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
    const r = await run('datahub', ['ingest', '-c', recipe(t, token)]);
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

withClient('the reference Python client against a catalog with authentication on', () => {
  let secured: Target;
  beforeAll(async () => {
    secured = await startEmbeddedTarget(AUTH_ENV);
  });
  afterAll(() => secured?.close());

  it('works with a personal access token from its configuration, and is refused without one or once it is revoked', async () => {
    const editor = await createUser(secured, unique('py_editor'), 'editor-password', 'Editor');
    const { token: editorToken, id } = await createToken(secured, editor, SYSTEM);
    const ok = await runAgainst(secured, editorToken, 'python', [join(__dirname, 'sdk_round_trip.py'), secured.baseUrl, unique('sdk')]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out.trim().split('\n').pop() as string)).toMatchObject({ description: 'from python', exists: true });

    const anonymous = await runAgainst(secured, undefined, 'python', [join(__dirname, 'sdk_round_trip.py'), secured.baseUrl, unique('sdk')]);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.out).toMatch(/401/);

    const revoked = await call(secured, 'POST', '/api/graphql', { query: 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id } }, bearer(editorToken));
    expect(revoked.body.data.revokeAccessToken).toBe(true);
    const after = await runAgainst(secured, editorToken, 'datahub', ['get', '--urn', editor, '-a', 'corpUserInfo']);
    expect(after.code).not.toBe(0);
    expect(after.out).toMatch(/401|Unauthorized|revoked/i);
  }, 180_000);

  it('ingests with `datahub ingest` when the recipe carries a token, and writes nothing without one', async () => {
    const admin = await createUser(secured, unique('py_admin'), 'admin-password', 'Admin');
    const { token: adminToken } = await createToken(secured, admin, SYSTEM);
    // The reference's own fixture for its token tests: one user.
    const refused = await runAgainst(secured, undefined, 'datahub', ['ingest', '-c', recipe(secured, undefined, 'smoke_tokens_revokable_test_data.json')]);
    expect(refused.out).toMatch(/status.: 401/);
    expect((await call(secured, 'POST', '/entities?action=exists', { urn: 'urn:li:corpuser:user' }, SYSTEM)).body).toEqual({ value: false });
    const hive = `/entitiesV2/${enc('urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)')}?aspects=List(schemaMetadata)`;
    const r = await runAgainst(secured, undefined, 'datahub', ['ingest', '-c', recipe(secured, adminToken)]);
    expect(r.out).toMatch(/'total_records_written': 101/);
    expect(r.code).toBe(0);
    expect((await call(secured, 'GET', hive, undefined, SYSTEM)).body.aspects.schemaMetadata.value.fields.length).toBeGreaterThan(0);
  }, 180_000);
});
