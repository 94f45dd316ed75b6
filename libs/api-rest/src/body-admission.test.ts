import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { admittingBodies, BodyAdmission } from './body-admission';

const LIMIT = 1000;

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let server: Server;
let port: number;
let admission: BodyAdmission;
/** Requests that got past the admission, answered once their body is read. */
const reached: string[] = [];
const held: ServerResponse[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  reached.push(req.url!);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/hold') return void held.push(res);
    res.end(`read ${Buffer.concat(chunks).length}`);
  });
}

function send(path: string, body: string | undefined, method = 'POST', chunked = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = chunked ? { 'Transfer-Encoding': 'chunked' } : body !== undefined ? { 'Content-Length': String(body.length) } : {};
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A request whose body is sent whole but which the server holds unanswered: its bytes stay in flight. */
async function hold(bytes: number): Promise<void> {
  const before = held.length;
  void send('/hold', 'x'.repeat(bytes));
  while (held.length === before) await new Promise((r) => setTimeout(r, 5));
}

/** A request whose head declares `bytes` of body that never come: admitted, then abandoned. */
function openWithoutBody(bytes: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST /partial HTTP/1.1\r\nHost: x\r\nContent-Length: ${bytes}\r\n\r\n`);
      resolve(socket);
    });
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}

beforeEach(async () => {
  reached.length = 0;
  held.length = 0;
  admission = new BodyAdmission({ maxInflightBytes: LIMIT, unknownLengthBytes: 600, retryAfterSeconds: 2 });
  const front = admittingBodies(admission, undefined);
  server = createServer((req, res) => front(req, res) || handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});

afterEach(async () => {
  for (const res of held) res.end();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

it('admits bodies while their bytes fit, and counts them until each is answered', async () => {
  await hold(400);
  await hold(500);
  expect(admission.inflightBytes).toBe(900);
  expect(await send('/small', 'x'.repeat(100))).toMatchObject({ status: 200, body: 'read 100' });
  held.shift()!.end();
  await until(() => admission.inflightBytes === 500);
});

it('answers 429 with Retry-After in the Rest.li error shape for a body that does not fit, which the handler never sees', async () => {
  await hold(900);
  const refused = await send('/big', 'x'.repeat(101));
  expect(refused.status).toBe(429);
  expect(refused.headers['retry-after']).toBe('2');
  expect(refused.headers['x-restli-error-response']).toBe('true');
  expect(refused.headers['x-restli-protocol-version']).toBe('2.0.0');
  expect(JSON.parse(refused.body)).toMatchObject({ status: 429, message: expect.stringMatching(/Too many request bytes in flight/) });
  expect(reached).toEqual(['/hold']);
  expect(admission.inflightBytes).toBe(900);
  held.shift()!.end();
  await until(() => admission.inflightBytes === 0);
  expect(await send('/big', 'x'.repeat(101))).toMatchObject({ status: 200, body: 'read 101' });
});

it('admits a body larger than the bound when nothing else is in flight', async () => {
  expect(await send('/huge', 'x'.repeat(LIMIT * 3))).toMatchObject({ status: 200, body: `read ${LIMIT * 3}` });
});

it('never refuses a request without a body', async () => {
  await hold(LIMIT);
  expect(await send('/get', undefined, 'GET')).toMatchObject({ status: 200, body: 'read 0' });
});

it('counts a body of undeclared length as the largest it may be', async () => {
  await hold(500);
  expect((await send('/chunked', 'x'.repeat(10), 'POST', true)).status).toBe(429);
  held.shift()!.end();
  await until(() => admission.inflightBytes === 0);
  await hold(400);
  expect(await send('/chunked', 'x'.repeat(10), 'POST', true)).toMatchObject({ status: 200, body: 'read 10' });
});

it('gives the bytes back when the client goes away before the answer', async () => {
  const socket = await openWithoutBody(700);
  await until(() => admission.inflightBytes === 700);
  socket.destroy();
  await until(() => admission.inflightBytes === 0);
});
