/**
 * `npm run bench -- [options]`: runs the scenarios against the embedded and/or distributed
 * deployment (each service its own process, this one only generates load), prints a table and
 * the targets, and writes the JSON report. Benchmarks report; they never fail a build.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './deployments/service-process';
import { parseOptions, type BenchOptions } from './options';
import { formatProfile } from './profile-summary';
import { formatTable, formatTargets, machine, tableRows, writeReport, type BenchReport, type ModeReport } from './report';
import { runMode } from './run-mode';
import { checkTargets } from './targets';

async function main(options: BenchOptions): Promise<void> {
  const runId = Date.now().toString(36);
  const workDir = join(tmpdir(), `cairn-bench-${runId}`);
  mkdirSync(workDir, { recursive: true });
  const started = Date.now();
  const log = (message: string) => process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
  const modes: Record<string, ModeReport> = {};
  for (const mode of options.modes) modes[mode] = await runMode({ options, runId, workDir, log }, mode);

  const targets = Object.entries(modes).flatMap(([mode, r]) => checkTargets(mode, r));
  const out = options.out ?? join(REPO_ROOT, 'bench', 'reports', `${options.modes.join('+')}-${options.entities}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: machine(),
    options: { ...options, scenarios: [...options.scenarios] },
    modes,
    targets,
  };
  writeReport(out, report);
  for (const [mode, r] of Object.entries(modes)) {
    const authentication = mode === 'distributed' || options.auth ? ', authentication on' : '';
    process.stdout.write(`\n${mode} (${r.catalog.entities} entities${authentication})\n${formatTable(tableRows(r))}\n`);
    for (const [name, profile] of Object.entries(r.profiles ?? {})) process.stdout.write(`\nprofile ${name}\n${formatProfile(profile)}\n`);
  }
  process.stdout.write(`\ntargets\n${formatTargets(targets)}\n\nreport: ${relative(process.cwd(), out)} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  if (!options.profile) rmSync(workDir, { recursive: true, force: true });
  else process.stdout.write(`profiles and service logs: ${workDir}\n`);
}

let options: BenchOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(2);
}
main(options).then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
