/**
 * `npm run ingest -- <file>...`: loads metadata files (MCE and MCP records, Rest.li or Avro-JSON
 * form) into a running catalog over its REST API, with a progress bar and a summary of failures.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { callOfRecord, recordsOfFile, type RestCall } from './records';
import { ProgressBar } from './progress';

interface Options {
  server: string;
  token?: string;
  concurrency: number;
  files: string[];
}

const USAGE = `usage: npm run ingest -- [--server URL] [--token TOKEN] [--concurrency N] <file.json>...
  --server       the catalog's base URL (default $CAIRN_GMS_URL or http://localhost:8080)
  --token        a bearer token (default $CAIRN_GMS_TOKEN or $DATAHUB_GMS_TOKEN)
  --concurrency  requests in flight (default 8)`;

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    server: process.env.CAIRN_GMS_URL ?? 'http://localhost:8080',
    token: process.env.CAIRN_GMS_TOKEN ?? process.env.DATAHUB_GMS_TOKEN,
    concurrency: 8,
    files: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--server') opts.server = next().replace(/\/+$/, '');
    else if (a === '--token') opts.token = next();
    else if (a === '--concurrency') opts.concurrency = Math.max(1, Number(next()) || 1);
    else if (a === '--help' || a === '-h') throw new Error(USAGE);
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else opts.files.push(a);
  }
  if (opts.files.length === 0) throw new Error(USAGE);
  return opts;
}

interface Failure {
  readonly where: string;
  readonly reason: string;
}

async function send(opts: Options, call: RestCall): Promise<void> {
  const res = await fetch(`${opts.server}${call.path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-RestLi-Protocol-Version': '2.0.0',
      ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
    },
    body: JSON.stringify(call.body),
  });
  if (res.ok) return;
  const text = await res.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    // not JSON: keep the text
  }
  throw new Error(`HTTP ${res.status}: ${message}`);
}

async function ingestFile(opts: Options, file: string): Promise<{ total: number; failures: Failure[] }> {
  const records = recordsOfFile(readFileSync(file, 'utf8'));
  const bar = new ProgressBar(records.length, basename(file));
  const failures: Failure[] = [];
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const index = next++;
      let label = `record #${index}`;
      try {
        const call = callOfRecord(records[index]);
        label = `record #${index} (${call.label})`;
        await send(opts, call);
      } catch (err) {
        failures.push({ where: `${basename(file)} ${label}`, reason: (err as Error).message });
      }
      bar.update(++done, failures.length);
    }
  };
  bar.update(0, 0);
  await Promise.all(Array.from({ length: Math.min(opts.concurrency, records.length) }, worker));
  return { total: records.length, failures };
}

async function main(): Promise<number> {
  let opts: Options;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  let total = 0;
  const failures: Failure[] = [];
  for (const file of opts.files) {
    try {
      const r = await ingestFile(opts, file);
      total += r.total;
      failures.push(...r.failures);
    } catch (err) {
      failures.push({ where: file, reason: `cannot read: ${(err as Error).message}` });
    }
  }
  process.stdout.write(`Ingested ${total - failures.length} of ${total} records into ${opts.server}; ${failures.length} failed.\n`);
  for (const f of failures) process.stdout.write(`  FAILED ${f.where}: ${f.reason}\n`);
  return failures.length ? 1 : 0;
}

main().then((code) => process.exit(code));
