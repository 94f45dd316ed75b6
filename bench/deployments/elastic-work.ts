/**
 * Where Elasticsearch's time goes, index by index: the time its threads spent indexing documents,
 * refreshing and merging each of a deployment's indices while a scenario ran (its index stats).
 * The server's CPU says how busy it was; this says for what, so a distributed figure that misses
 * its target names the index to look at (a dataset document, with its schema's fields, costs
 * Elasticsearch far more than an edge of the graph).
 */
import { aliasOfPhysicalIndex } from '@cairn/adapter-elastic';

/** One index's cumulative work, as its stats count it. */
export interface IndexWork {
  readonly indexMs: number;
  readonly docs: number;
  readonly refreshMs: number;
  readonly mergeMs: number;
}

/** A deployment's indices' work at one moment, by index name (prefix and version hash included). */
export interface IndexWorkReading {
  readonly prefix: string;
  readonly byIndex: Record<string, IndexWork>;
}

/** An index's work over an interval, named without the deployment's prefix and version hash. */
export interface IndexWorkDelta extends IndexWork {
  readonly index: string;
  /** Indexing, refresh and merge time together. */
  readonly totalMs: number;
}

interface IndexStats {
  readonly total?: {
    readonly indexing?: { readonly index_total?: number; readonly index_time_in_millis?: number };
    readonly refresh?: { readonly total_time_in_millis?: number };
    readonly merges?: { readonly total_time_in_millis?: number };
  };
}

/** The work of each index named `<prefix>_...`, from the body of `GET /<prefix>_*\/_stats`. */
export function indexWorkOf(stats: { readonly indices?: Record<string, IndexStats> }, prefix: string): Record<string, IndexWork> {
  const out: Record<string, IndexWork> = {};
  for (const [name, s] of Object.entries(stats.indices ?? {})) {
    if (!name.startsWith(`${prefix}_`)) continue;
    out[name] = {
      indexMs: s.total?.indexing?.index_time_in_millis ?? 0,
      docs: s.total?.indexing?.index_total ?? 0,
      refreshMs: s.total?.refresh?.total_time_in_millis ?? 0,
      mergeMs: s.total?.merges?.total_time_in_millis ?? 0,
    };
  }
  return out;
}

/** `bench1main_datasetindex_v2_c1edb591ed` → `datasetindex_v2`: the name the model gives the index. */
export function modelIndexName(name: string, prefix: string): string {
  return aliasOfPhysicalIndex(name.slice(prefix.length + 1));
}

/**
 * Each index's work between two readings, busiest first, leaving out indices that did nothing. An
 * index created meanwhile counts from zero; one dropped meanwhile is not in the later reading.
 */
export function indexWorkBetween(before: IndexWorkReading, after: IndexWorkReading): IndexWorkDelta[] {
  const zero: IndexWork = { indexMs: 0, docs: 0, refreshMs: 0, mergeMs: 0 };
  return Object.entries(after.byIndex)
    .map(([name, a]) => {
      const b = before.byIndex[name] ?? zero;
      const d = { indexMs: a.indexMs - b.indexMs, docs: a.docs - b.docs, refreshMs: a.refreshMs - b.refreshMs, mergeMs: a.mergeMs - b.mergeMs };
      return { index: modelIndexName(name, after.prefix), ...d, totalMs: d.indexMs + d.refreshMs + d.mergeMs };
    })
    .filter((d) => d.totalMs > 0 || d.docs > 0)
    .sort((x, y) => y.totalMs - x.totalMs);
}

/** The body of a stats request; undefined when the server does not answer with one (the bench reports without it). */
async function readStats<T>(url: string): Promise<T | undefined> {
  try {
    const res = await fetch(url);
    return res.ok ? ((await res.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the work of a deployment's indices; undefined when the server does not answer with stats. */
export async function readIndexWork(elasticsearchUrl: string, prefix: string): Promise<IndexWorkReading | undefined> {
  const stats = await readStats<{ indices?: Record<string, IndexStats> }>(`${elasticsearchUrl}/${prefix}_*/_stats/indexing,refresh,merge?level=indices`);
  return stats && { prefix, byIndex: indexWorkOf(stats, prefix) };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One index's work as the report prints it: `14.7 s indexing 7126 documents (2.07 ms each), refresh 5.6 s, merges 3.1 s`. */
export function formatIndexWork(d: IndexWork): string {
  const each = d.docs > 0 ? ` (${(d.indexMs / d.docs).toFixed(2)} ms each)` : '';
  return `${seconds(d.indexMs)} indexing ${d.docs} documents${each}, refresh ${seconds(d.refreshMs)}, merges ${seconds(d.mergeMs)}`;
}

/**
 * How much an Elasticsearch server has run: a fresh JVM runs the catalog's writes at about twice the
 * cost it reaches after a few minutes of them (docs/performance-log.md, EA-10k to EF-10k), so a
 * distributed figure compares only with runs on servers as warm.
 */
export interface ServerWarmth {
  readonly upSeconds: number;
  /** CPU time the server's process has spent since it started. */
  readonly cpuSeconds: number;
}

interface NodeStats {
  readonly jvm?: { readonly uptime_in_millis?: number };
  readonly process?: { readonly cpu?: { readonly total_in_millis?: number } };
}

/**
 * The warmth of the node that has spent the least CPU (the one whose speed bounds a run), from the
 * body of `GET /_nodes/stats/jvm,process`; undefined without a node that says.
 */
export function warmthOf(stats: { readonly nodes?: Record<string, NodeStats> }): ServerWarmth | undefined {
  let coldest: ServerWarmth | undefined;
  for (const n of Object.values(stats.nodes ?? {})) {
    const upMs = n.jvm?.uptime_in_millis;
    const cpuMs = n.process?.cpu?.total_in_millis;
    if (upMs === undefined || cpuMs === undefined) continue;
    const warmth = { upSeconds: Math.round(upMs / 1000), cpuSeconds: Math.round(cpuMs / 1000) };
    if (!coldest || warmth.cpuSeconds < coldest.cpuSeconds) coldest = warmth;
  }
  return coldest;
}

/** Reads the server's warmth; undefined when it does not answer with node stats. */
export async function readServerWarmth(elasticsearchUrl: string): Promise<ServerWarmth | undefined> {
  const stats = await readStats<{ nodes?: Record<string, NodeStats> }>(`${elasticsearchUrl}/_nodes/stats/jvm,process`);
  return stats && warmthOf(stats);
}
