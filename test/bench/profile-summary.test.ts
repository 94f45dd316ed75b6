import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleOf, prepare } from '@cairn/launcher';
import { summarizeProfile } from '../../bench/profile-summary';

describe('the profile summary of a launched service', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'cairn-profile-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['in the default bundle folder', 'node_modules/.cache/cairn/bundles'],
    ['in a bundle folder set by CAIRN_BUNDLE_CACHE', 'elsewhere/bundles'],
  ])("names each function's source file, not the bundle it ran from, %s", async (_where, cacheDir) => {
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    write('libs/a/src/alpha.ts', 'export function alpha(n: number): number {\n  return n * 2;\n}\n');
    write('libs/b/src/beta.ts', 'export function beta(n: number): number {\n  return n + 3;\n}\n');
    write('services/x/src/main.ts', "import { alpha } from '../../../libs/a/src/alpha';\nimport { beta } from '../../../libs/b/src/beta';\nconsole.log(alpha(beta(1)));\n");
    const entry = join(root, 'services/x/src/main.ts');
    const bundle = bundleOf(await prepare(entry, { root, cacheDir: join(root, cacheDir) }), entry, root);
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const frameOf = (name: string) => {
      const line = lines.findIndex((l) => l.includes(`function ${name}(`));
      return { functionName: name, url: pathToFileURL(bundle).href, lineNumber: line, columnNumber: lines[line]!.indexOf('function') };
    };
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: -1 }, children: [2, 3] },
        { id: 2, callFrame: frameOf('alpha') },
        { id: 3, callFrame: frameOf('beta') },
      ],
      samples: [2, 2, 2, 3],
      timeDeltas: [0, 1000, 1000, 1000],
      startTime: 0,
      endTime: 4000,
    };
    writeFileSync(join(root, 'run.cpuprofile'), JSON.stringify(profile));

    const summary = summarizeProfile(join(root, 'run.cpuprofile'));
    const functions = summary.functions.map((f) => f.name);
    expect(functions).toHaveLength(2);
    expect(functions[0]).toMatch(/^alpha .*libs\/a\/src\/alpha\.ts$/);
    expect(functions[1]).toMatch(/^beta .*libs\/b\/src\/beta\.ts$/);
  });
});
