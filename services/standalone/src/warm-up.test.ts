import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the install-time warm-up', () => {
  it('starts and closes the catalog, leaving nothing behind', () => {
    // Its own temp folder: the data directory it makes goes there (and tsx compiles afresh).
    const temp = mkdtempSync(join(tmpdir(), 'cairn-warm-up-test-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'warm-up.ts')], {
        env: { ...process.env, TMPDIR: temp },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(run.status).toBe(0);
      expect(run.stderr).not.toContain('warm-up skipped');
      expect(readdirSync(temp).filter((name) => name.startsWith('cairn-warm-up-'))).toEqual([]);
      expect(readdirSync(temp).some((name) => name.startsWith('tsx-'))).toBe(true);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, 120_000);
});
