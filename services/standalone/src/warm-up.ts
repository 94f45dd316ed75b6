/**
 * `npm install`'s last step: starts the catalog once on a throwaway directory and closes it, so tsx
 * has compiled every module a start loads (the worker threads' too) and the model's parsed form is
 * cached. The first `npm start` then loads them instead of compiling them, which took it about half
 * of a start to healthy (docs/performance.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function warmUp(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-warm-up-'));
  try {
    // Loaded here, so a module that fails to load is this function's error, caught below.
    const { configFromEnv } = await import('./config');
    const { startEmbeddedCatalog } = await import('./embedded-catalog');
    const catalog = await startEmbeddedCatalog(configFromEnv({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }));
    await catalog.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// A failed warm-up only leaves the first start to compile: it must neither fail nor hold up the install.
warmUp().then(
  () => process.exit(0),
  (err: unknown) => {
    console.warn(`warm-up skipped: ${String(err)}`);
    process.exit(0);
  },
);
