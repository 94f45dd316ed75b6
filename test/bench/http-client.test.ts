/** The load generator's raw-socket HTTP client against a real node:http server: bodies, chunks, refusals, closed and busy connections, deadlines. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, HttpError } from '../../bench/client/http-client';

let server: Server;
let base: string;
const sockets = new Set<unknown>();
let dropped = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/echo') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body, restli: req.headers['x-restli-protocol-version'], auth: req.headers.authorization ?? null }));
      } else if (req.url === '/chunked') {
        res.write('{"parts":["é",');
        setTimeout(() => res.end('"two"]}'), 5);
      } else if (req.url === '/busy') {
        res.writeHead(429, { 'Retry-After': '2' }).end('slow down');
      } else if (req.url === '/close') {
        res.writeHead(200, { Connection: 'close' }).end('bye');
      } else if (req.url === '/drop-once') {
        // as a server closing an idle kept-alive connection just as a request comes
        if (dropped++ === 0) req.socket.destroy();
        else res.end('second try');
      } else if (req.url === '/never') {
        // no answer: the client's deadline ends it
      } else res.writeHead(404).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

test('sends the body and headers and reads a Content-Length answer, reusing one connection', async () => {
  const client = new HttpClient(base, 1, 5_000, 'Bearer t');
  try {
    for (let i = 0; i < 3; i++) {
      const reply = await client.json<{ method: string; body: string; restli: string; auth: string }>('POST', '/echo', { n: i, s: 'ü' });
      expect(reply).toEqual({ method: 'POST', body: JSON.stringify({ n: i, s: 'ü' }), restli: '2.0.0', auth: 'Bearer t' });
    }
    expect(sockets.size).toBe(1);
  } finally {
    client.close();
  }
});

test('reads a chunked answer, and a refusal with its Retry-After', async () => {
  const client = new HttpClient(base, 2);
  try {
    expect(await client.json('GET', '/chunked')).toEqual({ parts: ['é', 'two'] });
    const busy = await client.send('GET', '/busy');
    expect(busy).toEqual({ status: 429, body: 'slow down', retryAfterSeconds: 2 });
    await expect(client.json('GET', '/busy')).rejects.toBeInstanceOf(HttpError);
  } finally {
    client.close();
  }
});

test('a connection the server closes is not reused, and a request it drops unanswered on a reused one is sent again', async () => {
  const client = new HttpClient(base, 1);
  try {
    expect((await client.send('GET', '/close')).body).toBe('bye');
    expect((await client.send('GET', '/echo')).status).toBe(200);
    expect(await client.send('GET', '/drop-once')).toEqual({ status: 200, body: 'second try' });
    expect(dropped).toBe(2);
  } finally {
    client.close();
  }
});

test('more concurrent requests than connections wait for one, and every request has a deadline', async () => {
  const client = new HttpClient(base, 2, 200);
  try {
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => client.json<{ body: string }>('POST', '/echo', i)));
    expect(replies.map((r) => r.body)).toEqual(Array.from({ length: 10 }, (_, i) => String(i)));
    await expect(client.send('GET', '/never')).rejects.toThrow(/no answer to GET \/never in 200 ms/);
    expect((await client.send('GET', '/echo')).status).toBe(200);
  } finally {
    client.close();
  }
});
