/** Types of launch.cjs (plain CommonJS, so it runs before TypeScript can be compiled). */
export interface PrepareOptions {
  /** The folder entry points and libs/ are under (the repository by default). */
  readonly root?: string;
  /** Where bundle sets go (CAIRN_BUNDLE_CACHE, else node_modules/.cache/cairn/bundles). */
  readonly cacheDir?: string;
}
/** Builds the bundles of `entry` and of every worker module unless fresh; resolves to their folder. */
export function prepare(entry: string, options?: PrepareOptions): Promise<string>;
/** The bundle a worker thread runs for `source` in a launched process; undefined elsewhere. */
export function launchedWorker(source: string): string | undefined;
/** The folder of the bundle set of `entry` (an absolute path under `root`, the repository by default). */
export function bundleSetDir(entry: string, root?: string, cacheDir?: string): string;
/** The bundle of `source` in the bundle set at `setDir`. */
export function bundleOf(setDir: string, source: string, root?: string): string;
/** The `*-worker.ts` modules under `root`/libs. */
export function workerEntries(root: string): string[];
/** Every `services/<name>/src/main.ts` under `root` (the repository by default). */
export function serviceEntries(root?: string): string[];
