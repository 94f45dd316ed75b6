import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareMode, compareReports, formatComparison, readReport } from '../../bench/compare';
import type { BenchReport, ModeReport } from '../../bench/report';

const loop = (p99: number, p95 = p99) => ({ requests: 100, perSecond: 50, latencyMs: { p50: 1, p95, p99 }, errors: 0, generatorCpuUsPerRequest: 10 });

function mode(ingestPerSecond: number, cpuUs: number, overrides: Partial<ModeReport> = {}): ModeReport {
  return {
    catalog: { entities: 1000 },
    footprint: { startToHealthyMs: 800, idleRssMb: 120, rssAfterLoadMb: 200 },
    ingest: {
      proposals: 6000,
      requests: 6000,
      seconds: 6000 / ingestPerSecond,
      proposalsPerSecond: ingestPerSecond,
      latencyMs: { p50: 3, p99: 20 },
      indexLagMs: { p50: 200, p99: 500 },
      tooManyRequests: 0,
      failed: 0,
      serverCpuUsPerProposal: cpuUs,
    } as unknown as ModeReport['ingest'],
    raw: { sqlite: { rows: 6000, seconds: 0.1, rowsPerSecond: 60000 } },
    ratios: { 'ingestProposal / raw SQLite upserts': ingestPerSecond / 60000 },
    ...overrides,
  };
}

const report = (modes: Record<string, ModeReport>): BenchReport => ({
  generatedAt: '2026-12-04T00:00:00.000Z',
  command: 'npm run bench -- --entities 1000',
  machine: { cpus: 2, cpuModel: 'Test CPU' },
  options: {},
  modes,
  targets: [],
});

const row = (rows: ReturnType<typeof compareMode>, scenario: string, name: string) => rows.find((r) => r.scenario === scenario && r.name === name);

describe('bench report comparison', () => {
  it('says whether each figure moved the better or the worse way, by its direction', () => {
    const rows = compareMode([mode(2000, 500), mode(2500, 400)]);
    expect(row(rows, 'ingest', 'proposals/s')).toMatchObject({ values: [2000, 2500], change: 1.25, verdict: 'better' });
    expect(row(rows, 'ingest', 'catalog CPU per proposal (µs)')).toMatchObject({ values: [500, 400], change: 0.8, verdict: 'better' });
    const worse = compareMode([mode(2500, 400), mode(2000, 500)]);
    expect(row(worse, 'ingest', 'proposals/s')?.verdict).toBe('worse');
    expect(row(worse, 'ingest', 'catalog CPU per proposal (µs)')?.verdict).toBe('worse');
  });

  it('calls a change within 2% the same, and gives the raw backend no verdict (it is the yardstick)', () => {
    const rows = compareMode([mode(2000, 500), mode(2030, 500, { raw: { sqlite: { rows: 6000, seconds: 0.05, rowsPerSecond: 120000 } } })]);
    expect(row(rows, 'ingest', 'proposals/s')?.verdict).toBe('same');
    const raw = row(rows, 'raw', 'sqlite rows/s');
    expect(raw).toMatchObject({ values: [60000, 120000], change: 2 });
    expect(raw?.verdict).toBeUndefined();
  });

  it('lists the search kinds and ratios the reports hold, and leaves out figures no report has', () => {
    const withSearch = mode(2000, 500, { search: { freeText: loop(30, 25), autocomplete: loop(12, 10) } as unknown as ModeReport['search'] });
    const rows = compareMode([withSearch, mode(2000, 500, { search: { freeText: loop(20, 18) } as unknown as ModeReport['search'] })]);
    expect(row(rows, 'search', 'freeText p95 (ms)')).toMatchObject({ values: [25, 18], verdict: 'better' });
    expect(row(rows, 'search', 'autocomplete p95 (ms)')).toMatchObject({ values: [10, undefined] });
    expect(row(rows, 'search', 'autocomplete p95 (ms)')?.change).toBeUndefined();
    expect(row(rows, 'ratio', 'ingestProposal / raw SQLite upserts')?.verdict).toBe('same');
    expect(row(rows, 'restore', 'aspects/s')).toBeUndefined();
  });

  it('compares each mode over the reports that ran it', () => {
    const compared = compareReports([report({ embedded: mode(2000, 500) }), report({ embedded: mode(3000, 400), distributed: mode(200, 4000) })]);
    expect(compared.map((c) => c.mode)).toEqual(['embedded', 'distributed']);
    const distributed = compared.find((c) => c.mode === 'distributed')!;
    expect(row(distributed.rows, 'ingest', 'proposals/s')).toMatchObject({ values: [undefined, 200] });
    const text = formatComparison(['a.json', 'b.json'], compared);
    expect(text).toContain('[1] a.json');
    expect(text).toMatch(/ingest\s+proposals\/s\s+2000\s+3000\s+×1\.500 better/);
  });

  it('refuses a file that is not a bench report, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
    const notJson = join(dir, 'a.json');
    writeFileSync(notJson, 'not json');
    expect(() => readReport(notJson)).toThrow(/a\.json: not a readable bench report/);
    const noModes = join(dir, 'b.json');
    writeFileSync(noModes, '{"command": "x"}');
    expect(() => readReport(noModes)).toThrow(/b\.json: not a bench report/);
  });
});
