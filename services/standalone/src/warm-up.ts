/**
 * `npm install`'s last step, run by the launcher: builds every service's bundles (libs/launcher), so
 * no first start builds them, then starts the catalog once on a throwaway directory and closes it, so
 * the model's parsed form is cached. Building at a first start took it about half a second more
 * (docs/performance-log.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepare, serviceEntries } from '@cairn/launcher';

async function warmUp(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  for (const entry of serviceEntries()) await prepare(entry);
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

// A failed warm-up only leaves the first start to build: it must neither fail nor hold up the install.
warmUp().then(
  () => process.exit(0),
  (err: unknown) => {
    console.warn(`warm-up skipped: ${String(err)}`);
    process.exit(0);
  },
);
