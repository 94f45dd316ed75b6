/**
 * A real headless browser for the UI tests: Debian's chromium driven by playwright-core. Tests skip
 * (with a message) when it is not installed, unless CAIRN_REQUIRE_BROWSER=true.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CAIRN_REQUIRE_BROWSER === 'true') throw new Error(`CAIRN_REQUIRE_BROWSER=true but ${CHROMIUM} is missing (apt-get install -y chromium)`);
  process.stderr.write(`SKIPPED browser tests: ${CHROMIUM} is missing (apt-get install -y chromium, or set CAIRN_REQUIRE_BROWSER=true to fail instead)\n`);
  return false;
}

export interface RunningBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** `headers` go with every request the pages make (the credentials a deployment with authentication needs). */
export async function launchBrowser(headers: Readonly<Record<string, string>> = {}): Promise<RunningBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'cairn-chromium-'));
  // A fresh profile directory each time (playwright passes it as --user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    extraHTTPHeaders: { ...headers },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
