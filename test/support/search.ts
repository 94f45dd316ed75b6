/** Calls of the search-side actions, and reference samples to search, for the HTTP contract tests. */
import { join } from 'node:path';
import { callOfRecord } from '../../services/cli/src/records';
import { readRecords, SAMPLES_DIR } from './samples';
import { call, type Reply, type Target } from './target';

/** Ingests reference sample files over REST, record by record (ingesting them again changes nothing). */
export async function loadSamples(t: Target, files: readonly string[]): Promise<void> {
  for (const file of files) {
    for (const record of readRecords(join(SAMPLES_DIR, file))) {
      const c = callOfRecord(record);
      const res = await call(t, 'POST', c.path, c.body);
      if (res.status !== 200) throw new Error(`${file} ${c.label}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }
}

export const ds = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;

/** `POST /<resource>?action=<name>`, expecting 200; answers the `value`. */
export async function action<T = any>(t: Target, resource: string, name: string, params: Record<string, unknown>): Promise<T> {
  const res = await call(t, 'POST', `/${resource}?action=${name}`, params);
  if (res.status !== 200) throw new Error(`${resource}?action=${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.value as T;
}

export function entities<T = any>(t: Target, name: string, params: Record<string, unknown>): Promise<T> {
  return action<T>(t, 'entities', name, params);
}

export const eqFilter = (field: string, value: string, extra: Record<string, unknown> = {}) => ({ or: [{ and: [{ field, value, condition: 'EQUAL', ...extra }] }] });

/**
 * Index reads lag writes: retries the check (assertions inside included) until it holds; past the
 * deadline its last failure is what the test reports.
 */
export async function indexed<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function expectRestliError(res: Reply, status: number, message: RegExp): void {
  expect({ status: res.status, message: res.body?.message }).toEqual({ status, message: expect.stringMatching(message) });
  expect(res.body).toMatchObject({ exceptionClass: expect.any(String), status });
  expect(res.headers.get('x-restli-error-response')).toBe('true');
}
