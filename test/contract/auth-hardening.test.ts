/**
 * Hardening of a catalog exposed with authentication on: rate limits per actor and for guessed
 * secrets, CORS off unless configured, introspection switchable, credentials checked before a
 * body is read, no secret in the logs, and no start without keys in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedCatalog } from '../../services/standalone/src/embedded-catalog';
import { configFromEnv } from '../../services/standalone/src/config';
import { AUTH_ENV, bearer, createToken, createUser, SYSTEM, SYSTEM_SECRET } from '../support/auth';
import { call, startEmbeddedTarget, type Target } from '../support/target';

const targets: Target[] = [];
async function target(env: Record<string, string> = {}): Promise<Target> {
  const t = await startEmbeddedTarget({ ...AUTH_ENV, ...env });
  targets.push(t);
  return t;
}
afterAll(() => Promise.all(targets.map((t) => t.close())));

const READ = '/aspects?action=getCount';

describe('rate limits', () => {
  it('limit each actor to RATE_LIMIT_PER_MINUTE requests, answering 429 with Retry-After; the system client is not limited', async () => {
    const t = await target({ RATE_LIMIT_PER_MINUTE: '5' });
    const [a, b] = await Promise.all(['limited_a', 'limited_b'].map(async (u) => bearer((await createToken(t, await createUser(t, u, 'password-123'), SYSTEM)).token)));
    for (let i = 0; i < 5; i++) expect((await call(t, 'POST', READ, { aspect: 'status' }, a)).status).toBe(200);
    const limited = await call(t, 'POST', READ, { aspect: 'status' }, a);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(t, 'POST', READ, { aspect: 'status' }, b)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await call(t, 'POST', READ, { aspect: 'status' }, SYSTEM)).status).toBe(200);
  });

  it('slow down password guessing: failed logins per address and user, and wrong system client secrets', async () => {
    const t = await target({ AUTH_FAILURES_PER_MINUTE: '3' });
    await createUser(t, 'guessed', 'the-password');
    for (let i = 0; i < 3; i++) expect((await call(t, 'POST', '/logIn', { username: 'guessed', password: `guess ${i}` })).status).toBe(401);
    const locked = await call(t, 'POST', '/logIn', { username: 'guessed', password: 'the-password' });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBeTruthy();
    for (let i = 0; i < 3; i++) expect((await call(t, 'POST', READ, { aspect: 'status' }, { Authorization: `Basic __datahub_system:guess${i}` })).status).toBe(401);
    expect((await call(t, 'POST', READ, { aspect: 'status' }, SYSTEM)).status).toBe(429);
  });
});

describe('requests', () => {
  it('are refused before their body is read when they carry no valid credentials', async () => {
    const t = await target({ MAX_BODY_BYTES: '1000' });
    const big = { proposal: { padding: 'x'.repeat(5000) } };
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', big)).status).toBe(401);
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', big, SYSTEM)).status).toBe(413);
  });

  it('without valid credentials hold none of MAX_INFLIGHT_BODY_BYTES, however slowly they send a large body: they are refused at once', async () => {
    const t = await target({ MAX_INFLIGHT_BODY_BYTES: '2000' });
    const { hostname, port } = new URL(t.baseUrl);
    const slowBody = (authorization?: string) =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), hostname, () => {
          const credentials = authorization ? `Authorization: ${authorization}\r\n` : '';
          socket.write(`POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\n${credentials}Content-Type: application/json\r\nContent-Length: 1990\r\n\r\n{"proposal":`);
          resolve(socket);
        });
      });
    const write = () => call(t, 'POST', READ, { aspect: 'status' }, SYSTEM);
    const stranger = await slowBody();
    await new Promise((r) => setTimeout(r, 100));
    expect((await write()).status).toBe(200);
    stranger.destroy();
    const client = await slowBody(SYSTEM.Authorization);
    let refused = await write();
    for (let i = 0; i < 50 && refused.status !== 429; i++) refused = await write();
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/Too many request bytes in flight/);
    client.destroy();
  });

  it('get no CORS headers unless origins are configured, then only those origins', async () => {
    const closed = await target();
    const preflight = { Origin: 'http://ui.example', 'Access-Control-Request-Method': 'POST' };
    expect((await call(closed, 'OPTIONS', '/api/graphql', undefined, preflight)).headers.get('access-control-allow-origin')).toBeNull();
    const open = await target({ CORS_ALLOWED_ORIGINS: 'http://ui.example' });
    const allowed = await call(open, 'OPTIONS', '/api/graphql', undefined, preflight);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://ui.example');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect((await call(open, 'OPTIONS', '/api/graphql', undefined, { ...preflight, Origin: 'http://evil.example' })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('may not introspect the GraphQL schema when GRAPHQL_INTROSPECTION=false', async () => {
    const query = { query: '{ __schema { queryType { name } } }' };
    expect((await call(await target(), 'POST', '/api/graphql', query, SYSTEM)).body.data.__schema.queryType.name).toBe('Query');
    const closed = await call(await target({ GRAPHQL_INTROSPECTION: 'false' }), 'POST', '/api/graphql', query, SYSTEM);
    expect(closed.body.errors[0].message).toMatch(/introspection/i);
  });
});

describe('secrets', () => {
  it('never reach the logs: passwords, tokens and the system secret', async () => {
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const t = await target({ LOG_LEVEL: 'debug' });
      const user = await createUser(t, 'logged', 'secret-password-1');
      const { token } = await createToken(t, user, SYSTEM);
      await call(t, 'POST', '/logIn', { username: 'logged', password: 'secret-password-1' });
      await call(t, 'POST', '/logIn', { username: 'logged', password: 'wrong-password-2' });
      await call(t, 'POST', READ, { aspect: 'status' }, bearer(token));
      await call(t, 'POST', READ, { aspect: 'status' }, bearer(`${token}x`));
      const all = logged.join('');
      for (const secret of ['secret-password-1', 'wrong-password-2', token, SYSTEM_SECRET, AUTH_ENV.DATAHUB_TOKEN_SERVICE_SIGNING_KEY, AUTH_ENV.AUTH_ROOT_PASSWORD]) expect(all).not.toContain(secret);
    } finally {
      process.stderr.write = write;
    }
  });

  it('must come from the environment in production: no start without a signing key, nor with a short one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cairn-prod-'));
    try {
      const production = { PORT: '0', DATA_DIR: dataDir, NODE_ENV: 'production', METADATA_SERVICE_AUTH_ENABLED: 'true' };
      await expect(startEmbeddedCatalog(configFromEnv(production))).rejects.toThrow(/DATAHUB_TOKEN_SERVICE_SIGNING_KEY.*refusing to start/);
      await expect(startEmbeddedCatalog(configFromEnv({ ...production, DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'short', DATAHUB_TOKEN_SERVICE_SALT: 's' }))).rejects.toThrow(/at least 32/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
