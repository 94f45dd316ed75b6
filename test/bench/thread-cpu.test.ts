/** The bench's CPU by thread: the service names its threads, and each thread's time is read apart. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { THREAD_NAMES } from '@cairn/adapter-embedded';
import { coresByThread, statCpuMs, threadCpuMs } from '../../bench/deployments/thread-cpu';
import { configFromEnv } from '../../services/standalone/src/config';
import { startEmbeddedCatalog } from '../../services/standalone/src/embedded-catalog';

describe('CPU by thread', () => {
  it('reads user and system ticks after a command name holding spaces and parentheses', () => {
    const rest = ['S', '1', '2', '3', '0', '-1', '4194304', '10', '0', '0', '0', '250', '40', '0', '0', '20', '0', '1'];
    expect(statCpuMs(`4242 (a (b) c) ${rest.join(' ')}`)).toBe(2900);
  });

  it('gives the cores each thread kept busy, busiest first, leaving idle threads out', () => {
    const before = { main: 1000, 'search-writer': 400, checkpointer: 50 };
    const after = { main: 2600, 'search-writer': 1400, checkpointer: 50, node: 100 };
    const cores = coresByThread(before, after, 2000);
    expect(cores).toEqual({ main: 0.8, 'search-writer': 0.5, node: 0.05 });
    expect(Object.keys(cores)).toEqual(['main', 'search-writer', 'node']);
  });

  it("tells the embedded catalog's threads apart by the names they give themselves", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-threads-'));
    const catalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir }));
    const expected = ['main', THREAD_NAMES.searchWriter, THREAD_NAMES.searchReader, THREAD_NAMES.checkpointer];
    try {
      // A thread names itself once its module has loaded, which may be after the catalog answers.
      let names: string[] = [];
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        names = Object.keys(threadCpuMs(process.pid));
        if (expected.every((n) => names.includes(n))) break;
      }
      expect(names).toEqual(expect.arrayContaining(expected));
    } finally {
      await catalog.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
