'use strict';
/**
 * Runs a service's TypeScript entry point under plain node:
 *
 *   node [node options] libs/launcher/launch.cjs services/<name>/src/main.ts [args]
 *
 * The entry point and every worker thread's module (`*-worker.ts` under libs/) are bundled by
 * esbuild, with the workspace modules they import, into node_modules/.cache/cairn/bundles, and run
 * from there; the bundles are built again when any file they were built from changes. Loading a
 * few hundred modules through tsx's hooks took about half of a start to healthy, in the main thread
 * and again in each worker thread, which on two cores competed with it (docs/performance-log.md).
 * Packages from node_modules stay outside the bundles and load as they always do.
 *
 * Plain CommonJS, so that it runs before anything can compile TypeScript.
 */
const fs = require('node:fs');
const path = require('node:path');
const { isBuiltin } = require('node:module');

const REPO_ROOT = path.resolve(__dirname, '../..');
/** Where bundle sets go; CAIRN_BUNDLE_CACHE moves it (the tests' own folders). */
const CACHE_DIR = process.env.CAIRN_BUNDLE_CACHE || path.join(REPO_ROOT, 'node_modules/.cache/cairn/bundles');
/** Set in a launched process to its bundle set's folder: its worker threads then run bundles too. */
const BUNDLES_ENV = 'CAIRN_BUNDLES';
/** Part of every manifest: a change to how bundles are built makes every bundle stale. */
const BUILD_FORMAT = 2;

/** Every service's entry point: what an install prepares, so that no first start builds. */
function serviceEntries(root = REPO_ROOT) {
  const services = path.join(root, 'services');
  return fs
    .readdirSync(services)
    .map((name) => path.join(services, name, 'src/main.ts'))
    .filter((file) => fs.existsSync(file))
    .sort();
}

/** The modules worker threads run: found by name, since they are started by path, not imported. */
function workerEntries(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (entry.name.endsWith('-worker.ts')) {
        found.push(full);
      }
    }
  };
  const libs = path.join(root, 'libs');
  if (fs.existsSync(libs)) walk(libs);
  return found.sort();
}

/** Where the bundles of `entry` (an absolute path under `root`) and its worker threads go. */
function bundleSetDir(entry, root = REPO_ROOT, cacheDir = CACHE_DIR) {
  return path.join(cacheDir, path.relative(root, entry).replace(/\.ts$/, '').replace(/[\\/]/g, '__'));
}

/** The bundle of `source` (an absolute .ts path under `root`) in a bundle set. */
function bundleOf(setDir, source, root = REPO_ROOT) {
  return path.join(setDir, path.relative(root, source).replace(/\.ts$/, '.js'));
}

function readManifest(setDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(setDir, 'manifest.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function fileStamp(file) {
  try {
    const stat = fs.statSync(file);
    return [stat.size, stat.mtimeMs];
  } catch {
    return undefined;
  }
}

/** True when the set was built by this build format and node, from files that have not changed since. */
function isFresh(manifest) {
  if (!manifest || manifest.format !== BUILD_FORMAT || manifest.node !== process.version) return false;
  return manifest.inputs.every(([file, size, mtimeMs]) => {
    const stamp = fileStamp(file);
    return stamp !== undefined && stamp[0] === size && stamp[1] === mtimeMs;
  });
}

/**
 * A package as the module importing it finds it, by absolute path, so a bundle loads the same
 * package wherever its folder is; a built-in module, or one not installed, as it is written.
 */
function packagePath(request, fromDir) {
  if (isBuiltin(request)) return request;
  try {
    return require.resolve(request, { paths: [fromDir] });
  } catch {
    return request;
  }
}

/**
 * esbuild's bundle of workspace code with everything from node_modules left to node. `__dirname`
 * is each source file's own folder, as when it runs unbundled: the code finds the model, the Avro
 * schemas and its worker modules beside itself.
 */
function workspacePlugin() {
  return {
    name: 'cairn-workspace',
    setup(build) {
      // The launcher itself stays outside too: one copy per process, which knows where it lives.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@cairn/') && args.path !== '@cairn/launcher') return undefined;
        return { path: packagePath(args.path, args.resolveDir), external: true };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => ({
        contents: fs.readFileSync(args.path, 'utf8').replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))),
        loader: 'ts',
      }));
    },
  };
}

/** Writes a file whole or not at all: a process starting meanwhile reads the old one or the new. */
function writeAtomically(file, contents) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, contents);
  fs.renameSync(temp, file);
}

async function build(entries, root, setDir) {
  const esbuild = require('esbuild');
  const result = await esbuild.build({
    entryPoints: entries,
    outbase: root,
    outdir: setDir,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node}`,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'silent',
    plugins: [workspacePlugin()],
  });
  // The bundles first, the manifest that declares them fresh last.
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  const sources = Object.keys(result.metafile.inputs).map((input) => path.resolve(root, input));
  const inputs = [...sources, __filename, ...['tsconfig.json', 'tsconfig.base.json'].map((f) => path.join(root, f)).filter(fs.existsSync)]
    .map((file) => [file, ...fileStamp(file)]);
  writeAtomically(path.join(setDir, 'manifest.json'), JSON.stringify({ format: BUILD_FORMAT, node: process.version, inputs }));
}

/**
 * Makes sure the bundles of `entry` and of every worker module are fresh, building them when not,
 * and returns their folder.
 */
async function prepare(entry, { root = REPO_ROOT, cacheDir = CACHE_DIR } = {}) {
  const absolute = path.resolve(entry);
  const setDir = bundleSetDir(absolute, root, cacheDir);
  if (!isFresh(readManifest(setDir))) await build([absolute, ...workerEntries(root)], root, setDir);
  return setDir;
}

/**
 * The file a worker thread runs for the module `source`: its bundle in a launched process, or
 * undefined elsewhere (under tsx or a test runner), where the worker compiles `source` itself.
 */
function launchedWorker(source) {
  const setDir = process.env[BUNDLES_ENV];
  if (!setDir) return undefined;
  const bundle = bundleOf(setDir, source);
  if (!fs.existsSync(bundle)) throw new Error(`no bundle for ${source}: a worker thread's module must be named *-worker.ts`);
  return bundle;
}

async function launch(entryArg, args) {
  const entry = path.resolve(entryArg);
  const setDir = await prepare(entry);
  process.env[BUNDLES_ENV] = setDir;
  // As if node ran the entry point itself.
  process.argv = [process.argv[0], entry, ...args];
  require(bundleOf(setDir, entry));
}

module.exports = { prepare, launchedWorker, bundleOf, bundleSetDir, workerEntries, serviceEntries };

if (require.main === module) {
  const [entry, ...args] = process.argv.slice(2);
  if (!entry) {
    console.error('usage: node libs/launcher/launch.cjs <entry point .ts> [args]');
    process.exit(2);
  }
  launch(entry, args).catch((err) => {
    console.error(`cannot launch ${entry}: ${err && err.stack ? err.stack : err}`);
    process.exit(1);
  });
}
