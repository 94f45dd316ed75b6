/**
 * Where a process spent its CPU time, from a V8 `.cpuprofile` (`node --cpu-prof`): self time by
 * function and by package or source folder, largest first. Usable alone:
 * `node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './deployments/service-process';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  readonly children?: number[];
}

interface CpuProfile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface HotSpot {
  readonly name: string;
  readonly selfMs: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly idlePercent: number;
  readonly functions: HotSpot[];
  readonly places: HotSpot[];
}

/** The launcher's default bundle folder; `CAIRN_BUNDLE_CACHE` may put bundles anywhere else. */
const BUNDLES = '/node_modules/.cache/cairn/bundles/';

/** Where a frame's code came from: its source file, and whether it ran from a bundle. */
interface Origin {
  readonly url: string;
  readonly bundled: boolean;
}

/** `libs/pipeline/src`, `node_modules/better-sqlite3`, `node:internal/...`: where a function lives. */
function placeOf(origin: Origin): string {
  const { url } = origin;
  if (!url) return '(native)';
  // What maps to no source: esbuild's helpers in a bundle.
  if (origin.bundled) return '(bundle helpers)';
  const path = url.replace(/^file:\/\//, '');
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm) return `npm:${nm[1]}`;
  if (path.startsWith('node:')) return path.split('/').slice(0, 2).join('/');
  const rel = relative(REPO_ROOT, path);
  return rel.split('/').slice(0, rel.startsWith('libs/adapters') ? 3 : 2).join('/');
}

/** A source file relative to the repository, a package file relative to its package. */
function fileOf(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const nm = /node_modules\/(.*)$/.exec(path);
  if (nm) return nm[1]!;
  return path.startsWith('/') ? relative(REPO_ROOT, path) : path;
}

/**
 * The source file of a function in a launched service's bundle (libs/launcher), from the source map
 * beside it; any other function's own file. Every workspace module is in the one bundle file. A
 * bundle is a script with a map beside it, in the launcher's default folder or anywhere outside
 * `node_modules`.
 */
class SourceFiles {
  private readonly maps = new Map<string, SourceMap | undefined>();

  of(frame: ProfileNode['callFrame']): Origin {
    const map = this.mapOf(frame.url);
    if (!map) return { url: frame.url, bundled: false };
    const source = map.findEntry(frame.lineNumber, frame.columnNumber);
    if (!source || !('originalSource' in source) || !source.originalSource) return { url: frame.url, bundled: true };
    const original = source.originalSource.startsWith('file:') ? fileURLToPath(source.originalSource) : source.originalSource;
    return { url: isAbsolute(original) ? original : resolve(dirname(frame.url.replace(/^file:\/\//, '')), original), bundled: false };
  }

  private mapOf(url: string): SourceMap | undefined {
    const path = url.replace(/^file:\/\//, '');
    if (!path.endsWith('.js') || (path.includes('/node_modules/') && !path.includes(BUNDLES))) return undefined;
    if (!this.maps.has(url)) {
      const file = `${path}.map`;
      this.maps.set(url, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : undefined);
    }
    return this.maps.get(url);
  }
}

function top(map: Map<string, number>, totalMs: number, count: number): HotSpot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, selfMs: Math.round(us / 1000), percent: Math.round((1000 * us) / 1000 / totalMs) / 10 }));
}

export function summarizeProfile(file: string, count = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  const sources = new SourceFiles();
  let idleUs = 0;
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    totalUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const origin = sources.of(frame);
    const where = placeOf(origin);
    const name = `${frame.functionName || '(anonymous)'} ${fileOf(origin.url)}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
    places.set(where, (places.get(where) ?? 0) + us);
  }
  const busyMs = (totalUs - idleUs) / 1000;
  return {
    totalMs: Math.round(totalUs / 1000),
    idlePercent: Math.round((1000 * idleUs) / totalUs) / 10,
    functions: top(functions, busyMs, count),
    places: top(places, busyMs, count),
  };
}

export function formatProfile(summary: ProfileSummary): string {
  const lines = [`${summary.totalMs} ms profiled, ${summary.idlePercent}% idle; self time of the busy time:`];
  lines.push('  by place:');
  for (const h of summary.places) lines.push(`    ${String(h.percent).padStart(5)}%  ${h.name}`);
  lines.push('  by function:');
  for (const h of summary.functions) lines.push(`    ${String(h.percent).padStart(5)}%  ${h.name}`);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, count] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatProfile(summarizeProfile(file, Number(count ?? 25)))}\n`);
}
