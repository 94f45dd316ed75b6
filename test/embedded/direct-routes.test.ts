/**
 * `ingestProposal` and single `entitiesV2` gets answered outside express (direct-routes.ts): the
 * same answers as the express routes of the same catalog (reached under `/api/gms`, which the
 * direct routes never take), and every request express would treat differently handed to it
 * untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { directRoutes } from '@cairn/api-rest';
import { configFromEnv } from '../../services/standalone/src/config';
import { startEmbeddedCatalog, type RunningCatalog } from '../../services/standalone/src/embedded-catalog';

const FALLBACK_STATUS = 599;
let dataDir: string;
let catalog: RunningCatalog;
let side: Server;
let sidePort: number;
const recorded: string[] = [];
let fellBack = 0;

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
  const handler = directRoutes(catalog.context, (method, route) => (status) => void recorded.push(`${method} ${route} ${status}`));
  side = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (handler(req, res)) return;
    fellBack++;
    req.resume();
    res.writeHead(FALLBACK_STATUS).end('express');
  });
  await new Promise<void>((resolve) => side.listen(0, '127.0.0.1', () => resolve()));
  sidePort = (side.address() as { port: number }).port;
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
