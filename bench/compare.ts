/**
 * `npm run bench:compare -- <report.json> <report.json> [...]`: the figures of bench reports side by
 * side, each with the last report's change against the first, said as better or worse. A machine's
 * speed drifts between runs (by a third within an hour on the project's own), so the raw backends'
 * rates of each run are listed too: a change that moves a figure more than they moved is the code's.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BenchReport, ModeReport } from './report';

type Better = 'higher' | 'lower' | 'neither';

interface Figure {
  readonly scenario: string;
  readonly name: string;
  readonly better: Better;
  readonly of: (r: ModeReport) => number | undefined;
}

const p = (latency: Record<string, number | undefined> | undefined, key: string) => latency?.[key];

/** The figures compared, in the order of the bench's table. */
const FIXED_FIGURES: readonly Figure[] = [
  { scenario: 'footprint', name: 'start to healthy (ms)', better: 'lower', of: (r) => r.footprint.startToHealthyMs },
  { scenario: 'footprint', name: 'RSS settled after the load (MB)', better: 'lower', of: (r) => r.footprint.rssAfterLoadMb },
  { scenario: 'footprint', name: 'RSS peak (MB)', better: 'lower', of: (r) => r.footprint.peakRssMb },
  { scenario: 'ingest', name: 'proposals/s', better: 'higher', of: (r) => r.ingest?.proposalsPerSecond },
  { scenario: 'ingest', name: 'catalog CPU per proposal (µs)', better: 'lower', of: (r) => r.ingest?.serverCpuUsPerProposal },
  { scenario: 'ingest', name: 'request p99 (ms)', better: 'lower', of: (r) => p(r.ingest?.latencyMs, 'p99') },
  { scenario: 'ingest', name: 'index lag p99 (ms)', better: 'lower', of: (r) => p(r.ingest?.indexLagMs, 'p99') },
  { scenario: 'batch', name: 'proposals/s', better: 'higher', of: (r) => r.batch?.proposalsPerSecond },
  { scenario: 'snapshots', name: 'aspects/s', better: 'higher', of: (r) => r.snapshots?.proposalsPerSecond },
  { scenario: 'kafka', name: 'index lag p99 (ms)', better: 'lower', of: (r) => p(r.kafka?.indexLagMs, 'p99') },
  { scenario: 'kafka burst', name: 'persisted/s', better: 'higher', of: (r) => r.kafkaBurst?.persistedPerSecond },
  { scenario: 'reads', name: 'entitiesV2 get p99 (ms)', better: 'lower', of: (r) => p(r.reads?.single.latencyMs, 'p99') },
  { scenario: 'reads', name: 'entitiesV2 batch get p99 (ms)', better: 'lower', of: (r) => p(r.reads?.batch.latencyMs, 'p99') },
  { scenario: 'reads', name: 'HTTP floor GET /config p99 (ms)', better: 'lower', of: (r) => p(r.reads?.httpFloor.latencyMs, 'p99') },
];

const LATER_FIGURES: readonly Figure[] = [
  { scenario: 'restore', name: 'aspects/s', better: 'higher', of: (r) => r.restore?.aspectsPerSecond },
  { scenario: 'restore', name: 'catalog CPU per aspect (µs)', better: 'lower', of: (r) => r.restore?.serverCpuUsPerAspect },
  { scenario: 'overload', name: 'acknowledged/s', better: 'higher', of: (r) => r.overload?.acknowledgedPerSecond },
  { scenario: 'overload', name: 'acknowledged writes missing', better: 'lower', of: (r) => r.overload?.missing },
];

/** Figures named by what the reports hold: search kinds, raw backends, ratios. */
function namedFigures(reports: readonly ModeReport[]): { search: Figure[]; raw: Figure[]; ratios: Figure[] } {
  const names = (pick: (r: ModeReport) => object | undefined) => [...new Set(reports.flatMap((r) => Object.keys(pick(r) ?? {})))];
  return {
    search: names((r) => r.search).map((kind) => ({
      scenario: 'search',
      name: `${kind} p95 (ms)`,
      better: 'lower' as const,
      of: (r: ModeReport) => p(r.search?.[kind as keyof NonNullable<ModeReport['search']>]?.latencyMs, 'p95'),
    })),
    // How fast the machine ran in each run: neither better nor worse, the yardstick.
    raw: names((r) => r.raw).map((name) => ({
      scenario: 'raw',
      name: `${name} rows/s`,
      better: 'neither' as const,
      of: (r: ModeReport) => r.raw?.[name as keyof NonNullable<ModeReport['raw']>]?.rowsPerSecond,
    })),
    ratios: names((r) => r.ratios).map((name) => ({ scenario: 'ratio', name, better: 'higher' as const, of: (r: ModeReport) => r.ratios?.[name] })),
  };
}

export interface ComparedRow {
  readonly scenario: string;
  readonly name: string;
  readonly values: readonly (number | undefined)[];
  /** The last value over the first, when both are there and the first is not 0. */
  readonly change?: number;
  readonly verdict?: 'better' | 'worse' | 'same';
}

/** Within this share of the first value, a change is called the same. */
const SAME_WITHIN = 0.02;

function verdictOf(change: number, better: Better): ComparedRow['verdict'] {
  if (better === 'neither') return undefined;
  if (Math.abs(change - 1) <= SAME_WITHIN) return 'same';
  return (change > 1) === (better === 'higher') ? 'better' : 'worse';
}

/** The rows of one mode, over the reports that ran it (a report without the mode has no values). */
export function compareMode(modes: readonly (ModeReport | undefined)[]): ComparedRow[] {
  const present = modes.filter((m): m is ModeReport => m !== undefined);
  const named = namedFigures(present);
  const figures = [...FIXED_FIGURES, ...named.search, ...LATER_FIGURES, ...named.raw, ...named.ratios];
  const rows: ComparedRow[] = [];
  for (const figure of figures) {
    const values = modes.map((m) => (m ? figure.of(m) : undefined));
    if (values.every((v) => v === undefined)) continue;
    const first = values[0];
    const last = values[values.length - 1];
    if (first === undefined || last === undefined || first === 0) {
      const unmoved = first === 0 && last === 0 && figure.better !== 'neither';
      rows.push({ scenario: figure.scenario, name: figure.name, values, ...(unmoved ? { verdict: 'same' as const } : {}) });
      continue;
    }
    const change = last / first;
    const verdict = verdictOf(change, figure.better);
    rows.push({ scenario: figure.scenario, name: figure.name, values, change, ...(verdict ? { verdict } : {}) });
  }
  return rows;
}

/** Every mode any report ran, with its rows. */
export function compareReports(reports: readonly BenchReport[]): { mode: string; rows: ComparedRow[] }[] {
  const modes = [...new Set(reports.flatMap((r) => Object.keys(r.modes)))];
  return modes.map((mode) => ({ mode, rows: compareMode(reports.map((r) => r.modes[mode])) }));
}

/** Ratios to three places (they sit around 0.1 to 1), every other figure to one. */
const shown = (v: number | undefined, scenario: string) => (v === undefined ? '-' : scenario === 'ratio' ? v.toFixed(3) : Number.isInteger(v) ? String(v) : v.toFixed(1));

export function formatComparison(labels: readonly string[], compared: ReturnType<typeof compareReports>): string {
  const lines: string[] = labels.map((label, i) => `  [${i + 1}] ${label}`);
  for (const { mode, rows } of compared) {
    const table = rows.map((r) => [
      r.scenario,
      r.name,
      ...r.values.map((v) => shown(v, r.scenario)),
      [r.change === undefined ? '' : `×${r.change.toFixed(3)}`, r.verdict ?? ''].filter(Boolean).join(' '),
    ]);
    const header = ['', '', ...labels.map((_, i) => `[${i + 1}]`), `[${labels.length}] ÷ [1]`];
    const widths = header.map((h, c) => Math.max(h.length, ...table.map((row) => row[c]!.length)));
    const line = (cells: string[]) => `  ${cells.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}`.trimEnd();
    lines.push('', mode, line(header), ...table.map(line));
  }
  return lines.join('\n');
}

function labelOf(file: string, report: BenchReport): string {
  const cpu = typeof report.machine.cpuModel === 'string' ? `, ${report.machine.cpus} × ${report.machine.cpuModel}` : '';
  return `${basename(file)}: ${report.command} (${report.generatedAt}${cpu})`;
}

export function readReport(file: string): BenchReport {
  let report: BenchReport;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
  } catch (err) {
    throw new Error(`${file}: not a readable bench report (${(err as Error).message})`);
  }
  if (!report || typeof report.modes !== 'object' || report.modes === null) throw new Error(`${file}: not a bench report (no "modes")`);
  return report;
}

function main(files: string[]): void {
  if (files.length < 2) throw new Error('usage: npm run bench:compare -- <report.json> <report.json> [...] (the last compared with the first)');
  const reports = files.map(readReport);
  process.stdout.write(`${formatComparison(files.map((f, i) => labelOf(f, reports[i]!)), compareReports(reports))}\n`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
}
