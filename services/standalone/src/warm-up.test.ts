import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleOf, bundleSetDir, serviceEntries } from '@cairn/launcher';

const REPO_ROOT = resolve(__dirname, '../../..');

describe('the install-time warm-up', () => {
  it("builds every service's bundles, starts and closes the catalog, and leaves no data behind", () => {
    // Its own temp folder and bundle folder: the data directory it makes goes there, and it builds afresh.
    const temp = mkdtempSync(join(tmpdir(), 'cairn-warm-up-test-'));
    const cache = join(temp, 'bundles');
    try {
      const run = spawnSync(process.execPath, ['libs/launcher/launch.cjs', 'services/standalone/src/warm-up.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, TMPDIR: temp, CAIRN_BUNDLE_CACHE: cache },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(run.status).toBe(0);
      expect(run.stderr).not.toContain('warm-up skipped');
      expect(readdirSync(temp).filter((name) => name.startsWith('cairn-warm-up-'))).toEqual([]);
      const entries = serviceEntries();
      expect(entries.map((entry) => entry.slice(REPO_ROOT.length + 1))).toEqual(expect.arrayContaining(['services/standalone/src/main.ts', 'services/gms/src/main.ts']));
      for (const entry of entries) {
        const setDir = bundleSetDir(entry, REPO_ROOT, cache);
        expect([entry, existsSync(join(setDir, 'manifest.json')), existsSync(bundleOf(setDir, entry))]).toEqual([entry, true, true]);
      }
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, 120_000);
});
