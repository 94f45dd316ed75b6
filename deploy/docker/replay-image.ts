/**
 * Replays deploy/docker/Dockerfile where no Docker engine runs: each stage's WORKDIR, ENV, COPY and
 * RUN steps in a directory of its own standing for the image's root, the build context filtered
 * by .dockerignore, and the system packages' step skipped (this machine has them). Then it starts
 * the final stage's command on loopback and checks that the image would serve: healthy, and a
 * proposal written through it read back. What it cannot check is the base image itself.
 * Usage: node --import tsx deploy/docker/replay-image.ts [--keep]
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { dockerIgnore } from './dockerignore';

const CONTEXT = resolve(__dirname, '../..');
const DOCKERFILE = join(__dirname, 'Dockerfile');

interface Stage {
  readonly name: string;
  readonly root: string;
  workdir: string;
  env: Record<string, string>;
  cmd?: string[];
}

const say = (message: string) => process.stderr.write(`[replay-image] ${message}\n`);

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(text: string): { op: string; args: string }[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [op, ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

function readIgnore(): (rel: string) => boolean {
  let text = '';
  try {
    text = readFileSync(join(CONTEXT, '.dockerignore'), 'utf8');
  } catch {
    return () => false;
  }
  return dockerIgnore(text);
}

function copy(stage: Stage, args: string, stages: Map<string, Stage>, ignored: (rel: string) => boolean): void {
  const words = args.split(/\s+/);
  const from = words[0].startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
  const dest = words.pop()!;
  const target = join(stage.root, dest.startsWith('/') ? dest : join(stage.workdir, dest));
  for (const src of words) {
    const source = from ? join(stageNamed(stages, from).root, src) : join(CONTEXT, src);
    const filter = from ? () => true : (path: string) => !ignored(relative(CONTEXT, path));
    if (!filter(source)) continue;
    const intoDirectory = dest.endsWith('/') || words.length > 1;
    const to = statSync(source).isDirectory() || !intoDirectory ? target : join(target, basename(src));
    mkdirSync(intoDirectory ? target : join(to, '..'), { recursive: true });
    // As Docker copies them: npm links the workspaces into node_modules by relative symlinks.
    cpSync(source, to, { recursive: true, filter, verbatimSymlinks: true });
  }
}

function stageNamed(stages: Map<string, Stage>, name: string): Stage {
  const stage = stages.get(name);
  if (!stage) throw new Error(`COPY --from=${name}: no such stage`);
  return stage;
}

function run(stage: Stage, command: string): void {
  if (/^apt-get\b/.test(command)) {
    say(`skipped (system packages): RUN ${command}`);
    return;
  }
  say(`RUN ${command}`);
  const result = spawnSync('sh', ['-c', command], { cwd: join(stage.root, stage.workdir), env: { ...process.env, ...stage.env }, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`RUN ${command}: exit ${result.status}`);
}

function build(workDir: string): Stage {
  const stages = new Map<string, Stage>();
  const ignored = readIgnore();
  let stage: Stage | undefined;
  for (const { op, args } of instructions(readFileSync(DOCKERFILE, 'utf8'))) {
    if (op === 'FROM') {
      const name = /\sAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.size);
      stage = { name, root: join(workDir, `stage-${stages.size}`), workdir: '/', env: {} };
      mkdirSync(stage.root, { recursive: true });
      stages.set(name, stage);
      say(`stage ${name} (${args.split(/\s+/)[0]})`);
      continue;
    }
    if (!stage) throw new Error(`${op} before FROM`);
    if (op === 'WORKDIR') {
      stage.workdir = args;
      mkdirSync(join(stage.root, args), { recursive: true });
    } else if (op === 'ENV') {
      for (const pair of args.split(/\s+/)) {
        const eq = pair.indexOf('=');
        stage.env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
    } else if (op === 'COPY') copy(stage, args, stages, ignored);
    else if (op === 'RUN') run(stage, args);
    else if (op === 'CMD') stage.cmd = JSON.parse(args) as string[];
    else if (op !== 'EXPOSE') throw new Error(`replay-image does not know ${op}: teach it, or keep the Dockerfile to what it knows`);
  }
  if (!stage?.cmd) throw new Error('the Dockerfile has no CMD in its last stage');
  return stage;
}

async function serves(image: Stage, dataDir: string): Promise<void> {
  const [command, ...args] = image.cmd!;
  const child = spawn(command, args, {
    cwd: join(image.root, image.workdir),
    env: { ...process.env, ...image.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const port = await new Promise<number>((resolvePort, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${out}`)), 60_000);
      const onLog = (chunk: Buffer) => {
        process.stderr.write(chunk);
        out += chunk.toString();
        const m = /"msg":"listening".*?"port":(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolvePort(Number(m[1]));
        }
      };
      // The service logs JSON lines, its own on stderr.
      child.stdout.on('data', onLog);
      child.stderr.on('data', onLog);
      child.on('exit', (code) => reject(new Error(`the image's command exited (${code}):\n${out}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const health = (await (await fetch(`${base}/health`)).json()) as { healthy?: boolean };
    if (health.healthy !== true) throw new Error(`unhealthy: ${JSON.stringify(health)}`);
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,replay.image,PROD)';
    const proposal = { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { contentType: 'application/json', value: '{"removed":false}' } };
    const written = await fetch(`${base}/aspects?action=ingestProposal`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ proposal }) });
    if (written.status !== 200) throw new Error(`ingestProposal answered ${written.status}: ${await written.text()}`);
    const read = (await (await fetch(`${base}/entitiesV2/${encodeURIComponent(urn)}`)).json()) as { aspects?: { status?: { value?: unknown } } };
    if (JSON.stringify(read.aspects?.status?.value) !== '{"removed":false}') throw new Error(`read back: ${JSON.stringify(read)}`);
    say(`the image's command served on :${port}: healthy, a proposal written and read back`);
  } finally {
    // Its files are removed next: it must have finished with them.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    }
  }
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-replay-image-'));
  try {
    const image = build(workDir);
    await serves(image, join(workDir, 'data'));
  } finally {
    if (process.argv.includes('--keep')) say(`kept: ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
