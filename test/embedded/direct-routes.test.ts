/**
 * `ingestProposal` and single `entitiesV2` gets answered outside express (direct-routes.ts): the
 * same answers as the express routes of the same catalog (reached under `/api/gms`, which the
 * direct routes never take), with authentication off and on, and every request express would
 * treat differently handed to it untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { directRoutes, RequestAuthentication } from '@cairn/api-rest';
import { configFromEnv } from '../../services/standalone/src/config';
import { startEmbeddedCatalog, type RunningCatalog } from '../../services/standalone/src/embedded-catalog';
import { AUTH_ENV, bearer, createToken, createUser, SYSTEM } from '../support/auth';
import type { Target } from '../support/target';

const FALLBACK_STATUS = 599;
let dataDir: string;
let catalog: RunningCatalog;
let side: Server;
let sidePort: number;
const recorded: string[] = [];
let fellBack = 0;

/** A server answering through `handler`, and with FALLBACK_STATUS (counted) what it leaves to express. */
async function sideServer(handler: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<{ server: Server; port: number }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (handler(req, res)) return;
    fellBack++;
    req.resume();
    res.writeHead(FALLBACK_STATUS).end('express');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as { port: number }).port };
}

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(port: number, path: string, body: Buffer | string | undefined, headers: Record<string, string | undefined> = {}, method = 'POST'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string> }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (value: unknown) => JSON.stringify(value);
const withLength = (body: string) => ({ 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
const direct = (body: string, headers: Record<string, string> = withLength(body)) => send(sidePort, '/aspects?action=ingestProposal', body, headers);
const viaExpress = (body: string, headers: Record<string, string> = withLength(body)) => send(catalog.port, '/api/gms/aspects?action=ingestProposal', body, headers);

function statusProposal(name: string, entityType = 'dataset') {
  return {
    proposal: {
      entityType,
      entityUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: json({ removed: false }), contentType: 'application/json' },
    },
  };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-direct-'));
  catalog = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: dataDir, MAX_BODY_BYTES: String(64 * 1024) }));
  ({ server: side, port: sidePort } = await sideServer(directRoutes(catalog.context, (method, route) => (status) => void recorded.push(`${method} ${route} ${status}`))));
});

afterAll(async () => {
  await new Promise<void>((resolve) => side.close(() => resolve()));
  await catalog.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('ingestProposal outside express', () => {
  it('answers a proposal as the express route does, and applies it', async () => {
    const a = await direct(json(statusProposal('direct_a')));
    const b = await viaExpress(json(statusProposal('direct_b')));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(JSON.parse(a.body)).toEqual({ value: 'urn:li:dataset:(urn:li:dataPlatform:hive,direct_a,PROD)' });
    expect(JSON.parse(b.body)).toEqual({ value: 'urn:li:dataset:(urn:li:dataPlatform:hive,direct_b,PROD)' });
    for (const h of ['content-type', 'x-restli-protocol-version']) expect(a.headers[h]).toBe(b.headers[h]);
    const read = await send(catalog.port, `/entitiesV2/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:hive,direct_a,PROD)')}`, undefined, {}, 'GET');
    expect(JSON.parse(read.body).aspects.status.value).toEqual({ removed: false });
  });

  it('answers bad input with the express error answer', async () => {
    const bodies = [json(statusProposal('direct_unknown', 'notAnEntityType')), json([1, 2]), json({}), json({ proposal: 'x' }), ''];
    for (const body of bodies) {
      const a = await direct(body);
      const b = await viaExpress(body);
      expect({ body, status: a.status }).toEqual({ body, status: b.status });
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
      expect(a.headers['x-restli-error-response']).toBe('true');
      expect(a.headers['content-type']).toBe(b.headers['content-type']);
    }
  });

  it('answers malformed JSON with 400 as express does', async () => {
    const body = '{"proposal": {';
    const a = await direct(body);
    const b = await viaExpress(body);
    expect(a.status).toBe(400);
    expect(b.status).toBe(400);
    expect(JSON.parse(a.body)).toMatchObject({ status: 400, exceptionClass: JSON.parse(b.body).exceptionClass, message: expect.stringMatching(/^Malformed JSON in request body: /) });
  });

  it('records each answer it gives in the request metrics', async () => {
    recorded.length = 0;
    await direct(json(statusProposal('direct_metrics')));
    await direct(json({}));
    expect(recorded).toEqual(['POST /aspects 200', 'POST /aspects 400']);
    const body = json(statusProposal('direct_served'));
    expect((await send(catalog.port, '/aspects?action=ingestProposal', body, withLength(body))).status).toBe(200);
    const metrics = await send(catalog.port, '/metrics', undefined, {}, 'GET');
    expect(metrics.body).toMatch(/cairn_http_request_duration_seconds_count\{(?=[^}]*method="POST")(?=[^}]*route="\/aspects")(?=[^}]*status="200")[^}]*\} [1-9]/);
  });

  it('hands express every request it would treat differently', async () => {
    const body = json(statusProposal('direct_fallback'));
    const cases: [string, () => Promise<Answer>][] = [
      ['a CORS request', () => direct(body, { ...withLength(body), Origin: 'http://ui.example' })],
      ['a compressed body', () => send(sidePort, '/aspects?action=ingestProposal', gzipSync(body), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(gzipSync(body).length) })],
      ['another charset', () => direct(body, { ...withLength(body), 'Content-Type': 'application/json; charset=latin1' })],
      ['a body without a declared length', () => send(sidePort, '/aspects?action=ingestProposal', body, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' })],
      ['a body over the limit', () => direct('x'.repeat(64 * 1024 + 1))],
      ['another action', () => send(sidePort, '/aspects?action=ingestProposalBatch', body, withLength(body))],
      ['a prefixed path', () => send(sidePort, '/gms/aspects?action=ingestProposal', body, withLength(body))],
      ['another method', () => send(sidePort, '/aspects?action=ingestProposal', undefined, {}, 'GET')],
    ];
    for (const [what, sent] of cases) {
      const before = fellBack;
      const answer = await sent();
      expect({ what, status: answer.status, fellBack: fellBack - before }).toEqual({ what, status: FALLBACK_STATUS, fellBack: 1 });
    }
    const charsetUtf8 = await direct(body, { ...withLength(body), 'Content-Type': 'application/json; charset=UTF-8' });
    expect(charsetUtf8.status).toBe(200);
  });
});

const urnA = 'urn:li:dataset:(urn:li:dataPlatform:hive,direct_a,PROD)';
const get = (port: number, path: string, headers: Record<string, string> = {}) => send(port, path, undefined, headers, 'GET');

describe('entitiesV2 gets outside express', () => {
  beforeAll(async () => {
    expect((await direct(json(statusProposal('direct_a')))).status).toBe(200);
  });

  it('answers as the express route does: whole entities, chosen aspects, an entity never written', async () => {
    const paths = [
      `/entitiesV2/${encodeURIComponent(urnA)}`,
      `/entitiesV2/${encodeURIComponent(urnA)}?aspects=List(status)`,
      `/entitiesV2/${encodeURIComponent(urnA)}?aspects=List(datasetKey,status)`,
      `/entitiesV2/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:hive,direct_never,PROD)')}`,
    ];
    for (const path of paths) {
      const a = await get(sidePort, path);
      const b = await get(catalog.port, `/api/gms${path}`);
      expect({ path, status: a.status }).toEqual({ path, status: 200 });
      expect(a.body).toBe(b.body);
      for (const h of ['content-type', 'x-restli-protocol-version']) expect(a.headers[h]).toBe(b.headers[h]);
    }
    expect(JSON.parse((await get(sidePort, paths[1]!)).body).aspects.status.value).toEqual({ removed: false });
  });

  it('answers bad input with the express error answer', async () => {
    const paths = [
      `/entitiesV2/${encodeURIComponent(urnA)}?aspects=List(notAnAspect)`,
      `/entitiesV2/${encodeURIComponent('urn:li:notAnEntity:x')}`,
      `/entitiesV2/${encodeURIComponent('not a urn')}`,
    ];
    for (const path of paths) {
      const a = await get(sidePort, path);
      const b = await get(catalog.port, `/api/gms${path}`);
      expect({ path, status: a.status }).toEqual({ path, status: b.status });
      expect(a.status).toBe(400);
      expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
      expect(a.headers['x-restli-error-response']).toBe('true');
    }
  });

  it('records each answer in the request metrics under the express route', async () => {
    recorded.length = 0;
    await get(sidePort, `/entitiesV2/${encodeURIComponent(urnA)}`);
    await get(sidePort, `/entitiesV2/${encodeURIComponent('not a urn')}`);
    expect(recorded).toEqual(['GET /entitiesV2/:urn 200', 'GET /entitiesV2/:urn 400']);
  });

  it('hands express every get it would treat differently', async () => {
    const path = `/entitiesV2/${encodeURIComponent(urnA)}`;
    const cases: [string, () => Promise<Answer>][] = [
      ['a CORS request', () => get(sidePort, path, { Origin: 'http://ui.example' })],
      ['a get with a body', () => send(sidePort, path, '{}', withLength('{}'), 'GET')],
      ['a URN that does not decode', () => get(sidePort, '/entitiesV2/urn%E0%A4%A')],
      ['a trailing slash', () => get(sidePort, `${path}/`)],
      ['a prefixed path', () => get(sidePort, `/api/gms${path}`)],
      ['a batch get', () => get(sidePort, `/entitiesV2?ids=List(${encodeURIComponent(urnA)})`)],
      ['another method', () => send(sidePort, path, undefined, {}, 'DELETE')],
    ];
    for (const [what, sent] of cases) {
      const before = fellBack;
      const answer = await sent();
      expect({ what, status: answer.status, fellBack: fellBack - before }).toEqual({ what, status: FALLBACK_STATUS, fellBack: 1 });
    }
  });
});

describe('with authentication on', () => {
  let secured: RunningCatalog;
  let securedDir: string;
  let securedSide: { server: Server; port: number };
  let userHeaders: Record<string, string>;
  let user: string;
  const ingestPath = '/aspects?action=ingestProposal';
  const ingestAt = (port: number, path: string, body: string, headers: Record<string, string> = {}) => send(port, path, body, { ...withLength(body), ...headers });

  beforeAll(async () => {
    securedDir = mkdtempSync(join(tmpdir(), 'cairn-direct-auth-'));
    secured = await startEmbeddedCatalog(configFromEnv({ PORT: '0', DATA_DIR: securedDir, ...AUTH_ENV, RATE_LIMIT_PER_MINUTE: '6' }));
    const target: Target = { baseUrl: `http://127.0.0.1:${secured.port}`, authHeaders: {}, close: async () => undefined };
    user = await createUser(target, 'direct_writer', 'direct-password', 'Editor');
    userHeaders = bearer((await createToken(target, user, SYSTEM)).token);
    // An instance of its own: this side server's limits are not the catalog's.
    securedSide = await sideServer(directRoutes(secured.context, undefined, new RequestAuthentication(secured.context.auth!, { cookiePostPaths: [], cookieGetPrefixes: [] })));
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => securedSide.server.close(() => resolve()));
    await secured.close();
    rmSync(securedDir, { recursive: true, force: true });
  });

  it('refuses a request without valid credentials as express does, before reading its body', async () => {
    const body = json(statusProposal('direct_refused'));
    for (const headers of [{}, { Authorization: 'Basic __datahub_system:wrong' }, { Authorization: 'Token x' }] as Record<string, string>[]) {
      const before = fellBack;
      const a = await ingestAt(securedSide.port, ingestPath, body, headers);
      const b = await ingestAt(secured.port, `/api/gms${ingestPath}`, body, headers);
      expect({ headers, status: a.status, fellBack: fellBack - before }).toEqual({ headers, status: 401, fellBack: 0 });
      expect(b.status).toBe(401);
      expect(JSON.parse(a.body)).toEqual(JSON.parse(b.body));
      for (const h of ['www-authenticate', 'x-restli-error-response']) expect(a.headers[h]).toBe(b.headers[h]);
    }
    const getA = await get(securedSide.port, `/entitiesV2/${encodeURIComponent(urnA)}`);
    expect(getA.status).toBe(401);
    expect(JSON.parse(getA.body)).toEqual(JSON.parse((await get(secured.port, `/api/gms/entitiesV2/${encodeURIComponent(urnA)}`)).body));
  });

  it("writes as the caller's actor, and reads as it", async () => {
    const name = 'direct_by_user';
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
    const before = fellBack;
    expect((await ingestAt(securedSide.port, ingestPath, json(statusProposal(name)), userHeaders)).status).toBe(200);
    const read = await get(securedSide.port, `/entitiesV2/${encodeURIComponent(urn)}?aspects=List(status)`, userHeaders);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).aspects.status).toMatchObject({ value: { removed: false }, created: { actor: user } });
    expect(read.body).toBe((await get(secured.port, `/api/gms/entitiesV2/${encodeURIComponent(urn)}?aspects=List(status)`, userHeaders)).body);
    expect((await ingestAt(securedSide.port, ingestPath, json(statusProposal('direct_by_system')), SYSTEM)).status).toBe(200);
    expect(fellBack - before).toBe(0);
  });

  it("hides a secret aspect the caller may not read, as express's route does", async () => {
    const path = `/entitiesV2/${encodeURIComponent(user)}?aspects=List(corpUserCredentials,corpUserInfo)`;
    const asUser = await get(securedSide.port, path, userHeaders);
    expect(asUser.status).toBe(200);
    expect(Object.keys(JSON.parse(asUser.body).aspects)).not.toContain('corpUserCredentials');
    expect(asUser.body).toBe((await get(secured.port, `/api/gms${path}`, userHeaders)).body);
    expect(Object.keys(JSON.parse((await get(securedSide.port, path, SYSTEM)).body).aspects)).toContain('corpUserCredentials');
  });

  it("counts each request once against the caller's rate limit, whichever path served it", async () => {
    const target: Target = { baseUrl: `http://127.0.0.1:${secured.port}`, authHeaders: {}, close: async () => undefined };
    const token = bearer((await createToken(target, await createUser(target, 'direct_limited', 'limited-password', 'Editor'), SYSTEM)).token);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await ingestAt(secured.port, ingestPath, json(statusProposal(`direct_limited_${i}`)), token)).status);
      statuses.push((await ingestAt(secured.port, `/api/gms${ingestPath}`, json(statusProposal(`express_limited_${i}`)), token)).status);
    }
    const limited = await ingestAt(secured.port, ingestPath, json(statusProposal('direct_limited_last')), token);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(limited.body)).toMatchObject({ status: 429, message: expect.stringMatching(/Too many requests from/) });
  });
});
