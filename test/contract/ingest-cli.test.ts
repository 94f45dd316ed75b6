/** The file ingester command against a running catalog: progress, summary, failures and exit code. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { REPO_ROOT } from '../support/process';
import { SAMPLES_DIR, sampleFiles } from '../support/samples';
import { clientToken } from '../support/auth';
import { call, enc, startTarget, unique, type Target } from '../support/target';

let t: Target;
let token: string | undefined;
beforeAll(async () => {
  t = await startTarget();
  token = await clientToken(t);
});
afterAll(() => t.close());

function ingest(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'services/cli/src/ingest.ts', '--server', t.baseUrl, ...(token ? ['--token', token] : []), ...args], { cwd: REPO_ROOT }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run ingest', () => {
  it('loads sample files as they are and prints a summary', async () => {
    const r = await ingest(join(SAMPLES_DIR, 'bootstrap_mce.json'), join(SAMPLES_DIR, 'bigquery_usages_golden.json'));
    expect(r.stdout).toMatch(/Ingested (\d+) of \1 records into .*; 0 failed\./);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/bootstrap_mce\.json \[#+\] \d+\/\d+/);
    const hive = await call(t, 'GET', `/entitiesV2/${enc('urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)')}?aspects=List(ownership)`);
    expect(hive.body.aspects.ownership.value.owners.length).toBeGreaterThan(0);
  });

  it('loads every reference sample file, nothing failed', async () => {
    const files = sampleFiles();
    const r = await ingest(...files);
    expect(r.stdout).toMatch(/Ingested (\d+) of \1 records into .*; 0 failed\./);
    expect(r.code).toBe(0);
    for (const f of files) expect(r.stderr).toContain(basename(f));
  }, 300_000);

  it('reports what failed and why, and exits non-zero', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-'));
    const file = join(dir, 'mixed.json');
    const good = `urn:li:tag:${unique('good')}`;
    writeFileSync(
      file,
      JSON.stringify([
        { entityType: 'tag', entityUrn: good, changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { json: { name: 'good' } } },
        { entityType: 'tag', entityUrn: 'urn:li:tag:bad', changeType: 'UPSERT', aspectName: 'tagProperties', aspect: { json: { name: 7 } } },
        { neither: true },
      ]),
    );
    const r = await ingest(file).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Ingested 1 of 3 records/);
    expect(r.stdout).toMatch(/FAILED mixed\.json record #1 \(tagProperties of urn:li:tag:bad\): HTTP 422: .*expected a string/);
    expect(r.stdout).toMatch(/FAILED mixed\.json record #2: a record must have proposedSnapshot/);
    expect((await call(t, 'GET', `/entitiesV2/${enc(good)}?aspects=List(tagProperties)`)).body.aspects.tagProperties.value).toEqual({ name: 'good' });
  });
});
