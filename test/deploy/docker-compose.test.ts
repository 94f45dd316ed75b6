/**
 * docker-compose.yml and its image cannot run on machines without Docker (CI's), so what can drift
 * silently is checked here: a renamed environment variable would leave a container on its loopback
 * default, a moved entry point or a file the image leaves out would fail only at `docker compose up`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { nodeOptionsOf, npmStartCommand } from '../../bench/deployments/service-process';
import { LAUNCHER } from '../support/process';

const ROOT = resolve(__dirname, '../..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const cairnServices = Object.entries(compose.services).filter(([, s]) => s.build);

/** Every non-test TypeScript source of the libraries and services, as one text. */
function sourceText(): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(join(ROOT, 'libs'));
  walk(join(ROOT, 'services'));
  return texts.join('\n');
}

/** The TypeScript file a `node [options] libs/launcher/launch.cjs <file>` command runs. */
function entryPoint(command: readonly string[]): string {
  const file = command.find((arg) => arg.endsWith('.ts'));
  if (!file) throw new Error(`no TypeScript entry point in ${command.join(' ')}`);
  return file;
}

describe('docker-compose.yml', () => {
  it('runs every cairn service from an entry point that exists, built by a Dockerfile that exists', () => {
    expect(cairnServices.map(([name]) => name).sort()).toEqual(['gms', 'mae-consumer', 'mce-consumer', 'timeseries-indexer']);
    for (const [name, service] of cairnServices) {
      expect([name, existsSync(join(ROOT, service.build!.context, service.build!.dockerfile))]).toEqual([name, true]);
      expect([name, existsSync(join(ROOT, entryPoint(service.command ?? [])))]).toEqual([name, true]);
    }
  });

  it('sets only environment variables the code reads', () => {
    const source = sourceText();
    const names = new Set(cairnServices.flatMap(([, s]) => Object.keys(s.environment ?? {})));
    expect(names.size).toBeGreaterThan(5);
    const unread = [...names].filter((name) => !new RegExp(`\\benv\\.${name}\\b|['"\`]${name}['"\`]`).test(source));
    expect(unread).toEqual([]);
  });

  it('uses the backends at the versions the deployment is built for', () => {
    const images = Object.fromEntries(Object.entries(compose.services).map(([name, s]) => [name, s.image]));
    expect(images.elasticsearch).toBe('docker.elastic.co/elasticsearch/elasticsearch:7.10.2');
    expect(images.kafka).toMatch(/^apache\/kafka:3\.9\.\d+$/);
    expect(images.mongo).toMatch(/^mongo:\d+$/);
  });

  it('starts each distributed service with the same node options in compose and in deploy/local', () => {
    const services = readFileSync(join(ROOT, 'deploy/local/services.sh'), 'utf8');
    const local = /exec node (.*?)libs\/launcher\/launch\.cjs "services\/\$name\/src\/main\.ts"/.exec(services)![1]!.trim().split(/\s+/);
    expect(local).toContain('--single-threaded-gc');
    for (const [name] of cairnServices) expect([name, nodeOptionsOf(name)]).toEqual([name, local]);
  });
});

describe('deploy/docker/Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'deploy/docker/Dockerfile'), 'utf8');
  const cmd = JSON.parse(/^CMD (.+)$/m.exec(dockerfile)![1]!) as string[];

  it('copies only paths that exist, including the models the services load at start', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
    expect(sources).toEqual(expect.arrayContaining(['libs', 'services', 'schemas', 'package-lock.json']));
    expect(sources.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('installs what its command needs at run time: esbuild, which the launcher bundles with, is a production dependency', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(pkg.dependencies).toHaveProperty('esbuild');
    expect(existsSync(join(ROOT, entryPoint(cmd)))).toBe(true);
  });

  it('starts the catalog as npm start does, with the node options the benchmark measured', () => {
    expect(cmd.join(' ')).toBe(npmStartCommand());
    expect(cmd.slice(1, cmd.indexOf(LAUNCHER))).toEqual(nodeOptionsOf('standalone'));
    expect(nodeOptionsOf('standalone')).toContain('--single-threaded-gc');
  });
});
