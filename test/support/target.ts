/**
 * The deployment a contract test talks to: `CAIRN_BASE_URL` when set (any running deployment;
 * with authentication on, `CAIRN_TEST_AUTH` is the Authorization header every call sends, e.g.
 * `Basic __datahub_system:<secret>`), otherwise a fresh embedded catalog in a temporary data
 * directory on a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchIndex } from '@cairn/ports';
import { startEmbeddedCatalog, type RunningCatalog } from '../../services/standalone/src/embedded-catalog';
import { configFromEnv } from '../../services/standalone/src/config';

export interface Target {
  readonly baseUrl: string;
  /** Headers every call sends: the credentials the deployment needs, if any. */
  readonly authHeaders: Readonly<Record<string, string>>;
  /** The deployment's search index when this process holds it (an embedded target): see support/indexes.ts. */
  readonly searchIndex?: SearchIndex;
  close(): Promise<void>;
}

export async function startTarget(env: Record<string, string> = {}): Promise<Target> {
  const external = process.env.CAIRN_BASE_URL;
  if (!external) return startEmbeddedTarget(env);
  const auth = process.env.CAIRN_TEST_AUTH;
  return { baseUrl: external.replace(/\/+$/, ''), authHeaders: auth ? { Authorization: auth } : {}, close: async () => undefined };
}

/** An embedded catalog even when CAIRN_BASE_URL is set: for tests that configure the service themselves. */
export async function startEmbeddedTarget(env: Record<string, string> = {}): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-test-'));
  const catalog: RunningCatalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir, ...env }));
  return {
    baseUrl: `http://127.0.0.1:${catalog.port}`,
    authHeaders: {},
    searchIndex: catalog.ports.search,
    close: async () => {
      await catalog.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

export async function call<T = any>(target: Target, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
  const res = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { 'X-RestLi-Protocol-Version': '2.0.0', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...target.authHeaders, ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // keep text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const enc = encodeURIComponent;

/** A unique suffix so tests against a shared deployment do not see each other's entities. */
export function unique(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export function proposal(entityUrn: string, aspectName: string, value: unknown, extra: Record<string, unknown> = {}) {
  const entityType = entityUrn.split(':')[2];
  return {
    proposal: {
      entityType,
      entityUrn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      ...extra,
    },
  };
}

/** Polls until `check` returns a truthy value or the deadline passes (index projections are asynchronous). */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
