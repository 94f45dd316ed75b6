import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundleOf, launchedWorker, prepare, serviceEntries, workerEntries } from './launch.cjs';

/** A miniature repository: a service that imports a library module and names a worker module. */
function fixture(root: string): { entry: string; worker: string; library: string } {
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write('libs/greet/src/greet.ts', "export const greeting = (name: string): string => `hello ${name}`;\n");
  write('libs/greet/src/echo-worker.ts', "import { greeting } from './greet';\nexport const echoed = greeting('worker');\n");
  write(
    'services/app/src/main.ts',
    "import { join } from 'node:path';\nimport { greeting } from '../../../libs/greet/src/greet';\n" +
      "console.log(JSON.stringify({ text: greeting('main'), dir: __dirname, worker: join(__dirname, '../../../libs/greet/src/echo-worker.ts') }));\n",
  );
  return { entry: join(root, 'services/app/src/main.ts'), worker: join(root, 'libs/greet/src/echo-worker.ts'), library: join(root, 'libs/greet/src/greet.ts') };
}

describe('the launcher', () => {
  let root: string;
  let cacheDir: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cairn-launcher-'));
    cacheDir = join(root, 'cache');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the service entry points and the worker modules by their names', () => {
    const { entry, worker } = fixture(root);
    expect(serviceEntries(root)).toEqual([entry]);
    expect(workerEntries(root)).toEqual([worker]);
  });

  it("bundles an entry point and the worker modules, each module keeping its own folder as __dirname", async () => {
    const { entry, worker } = fixture(root);
    const setDir = await prepare(entry, { root, cacheDir });
    const run = JSON.parse(execFileSync(process.execPath, [bundleOf(setDir, entry, root)], { encoding: 'utf8' })) as Record<string, string>;
    expect(run).toEqual({ text: 'hello main', dir: dirname(entry), worker });
    expect(readFileSync(bundleOf(setDir, worker, root), 'utf8')).toContain('hello ${name}');
  });

  it('builds again only when a file the bundles came from changed', async () => {
    const { entry, library } = fixture(root);
    const setDir = await prepare(entry, { root, cacheDir });
    const bundle = bundleOf(setDir, entry, root);
    const built = statSync(bundle).mtimeMs;
    await prepare(entry, { root, cacheDir });
    expect(statSync(bundle).mtimeMs).toBe(built);

    writeFileSync(library, "export const greeting = (name: string): string => `good day ${name}`;\n");
    await prepare(entry, { root, cacheDir });
    expect(execFileSync(process.execPath, [bundle], { encoding: 'utf8' })).toContain('good day main');
  });

  it('rejects an entry point that does not compile, leaving the last good bundles in place', async () => {
    const { entry, library } = fixture(root);
    const setDir = await prepare(entry, { root, cacheDir });
    writeFileSync(library, 'export const greeting = (;\n');
    await expect(prepare(entry, { root, cacheDir })).rejects.toThrow(/greet\.ts/);
    expect(execFileSync(process.execPath, [bundleOf(setDir, entry, root)], { encoding: 'utf8' })).toContain('hello main');
  });
});

describe('a launched process', () => {
  const saved = process.env.CAIRN_BUNDLES;
  afterEach(() => {
    if (saved === undefined) delete process.env.CAIRN_BUNDLES;
    else process.env.CAIRN_BUNDLES = saved;
  });

  it("runs a worker thread's module from its bundle, and refuses a module that was not bundled", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'cairn-launcher-cache-'));
    try {
      const repoRoot = join(__dirname, '../..');
      const setDir = await prepare(join(repoRoot, 'services/standalone/src/main.ts'), { cacheDir });
      const worker = join(repoRoot, 'libs/adapters/embedded/src/checkpoint-worker.ts');
      process.env.CAIRN_BUNDLES = setDir;
      expect(launchedWorker(worker)).toBe(join(setDir, 'libs/adapters/embedded/src/checkpoint-worker.js'));
      expect(existsSync(launchedWorker(worker)!)).toBe(true);
      expect(() => launchedWorker(join(repoRoot, 'libs/adapters/embedded/src/checkpointer.ts'))).toThrow(/must be named \*-worker\.ts/);
      delete process.env.CAIRN_BUNDLES;
      expect(launchedWorker(worker)).toBeUndefined();
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 60_000);
});
