/**
 * A lean keep-alive HTTP/1.1 client for the load generator, on raw sockets: the generator shares
 * the machine with the catalog, and node:http's client cost it about 70 µs of CPU a request that
 * the catalog then lacked (fetch costs more still). A request is one write of its head and body;
 * an answer is read by its Content-Length (or chunks). Every request has a deadline, so no loop
 * waits forever.
 */
import { connect, type Socket } from 'node:net';

export interface HttpReply {
  readonly status: number;
  readonly body: string;
  readonly retryAfterSeconds?: number;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 300)}`);
  }
}

export class HttpClient {
  private readonly host: string;
  private readonly port: number;
  private readonly fixedHeaders: string;
  private readonly idle: Connection[] = [];
  private readonly open = new Set<Connection>();
  /** Requests waiting for a connection while `connections` are busy. */
  private readonly queue: (() => void)[] = [];
  private closed = false;

  /** `authorization`: the Authorization header of every request, for a deployment with authentication on. */
  constructor(
    baseUrl: string,
    private readonly connections: number,
    private readonly timeoutMs = 60_000,
    authorization?: string,
  ) {
    const url = new URL(baseUrl);
    if (url.hostname !== '127.0.0.1') throw new Error(`the benchmark only talks to 127.0.0.1, not ${url.hostname}`);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.fixedHeaders = `Host: ${url.host}\r\nConnection: keep-alive\r\nX-RestLi-Protocol-Version: 2.0.0\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}`;
  }

  /**
   * A request on a kept-alive connection that the server closed at that moment (its idle timeout)
   * fails before anything was read: it is sent again once, on a fresh connection.
   */
  async send(method: 'GET' | 'POST', path: string, body?: string): Promise<HttpReply> {
    const head =
      body === undefined
        ? `${method} ${path} HTTP/1.1\r\n${this.fixedHeaders}\r\n`
        : `${method} ${path} HTTP/1.1\r\n${this.fixedHeaders}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const request = body === undefined ? head : head + body;
    const what = `${method} ${path.slice(0, 80)}`;
    let connection = await this.acquire();
    try {
      return await connection.exchange(request, this.timeoutMs, what);
    } catch (err) {
      if (!(err instanceof StaleConnectionError)) throw err;
      this.release(connection);
      connection = await this.acquire(true);
      return await connection.exchange(request, this.timeoutMs, what);
    } finally {
      this.release(connection);
    }
  }

  /** A JSON answer of a 2xx reply; anything else throws. */
  async json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const reply = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (reply.status < 200 || reply.status >= 300) throw new HttpError(reply.status, reply.body);
    return (reply.body ? JSON.parse(reply.body) : undefined) as T;
  }

  close(): void {
    this.closed = true;
    for (const c of this.open) c.destroy();
    this.open.clear();
    this.idle.length = 0;
  }

  /**
   * An idle open connection, a new one while fewer than `connections` are open, or the next one
   * released; `fresh`: a new one at once (a retry's, in place of the stale one just dropped).
   */
  private async acquire(fresh = false): Promise<Connection> {
    for (;;) {
      if (this.closed) throw new Error('the HTTP client is closed');
      const reused = fresh ? undefined : this.idle.pop();
      if (reused) return reused;
      if (this.open.size < this.connections || fresh) {
        const c = new Connection(connect({ host: this.host, port: this.port, noDelay: true }), () => this.forget(c));
        this.open.add(c);
        return c;
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
  }

  private release(connection: Connection): void {
    if (connection.reusable && !this.closed) this.idle.push(connection);
    else this.forget(connection);
    this.queue.shift()?.();
  }

  private forget(connection: Connection): void {
    connection.destroy();
    this.open.delete(connection);
    const i = this.idle.indexOf(connection);
    if (i >= 0) this.idle.splice(i, 1);
  }
}

class StaleConnectionError extends Error {}

/** One socket and the answer it is reading: at most one request at a time (no pipelining). */
class Connection {
  private used = false;
  private ended = false;
  private answer?: AnswerReader;

  constructor(
    private readonly socket: Socket,
    onGone: () => void,
  ) {
    socket.on('data', (chunk: Buffer) => this.answer?.push(chunk));
    socket.on('error', (err) => this.end(err));
    socket.on('close', () => {
      this.end(new Error('the server closed the connection'));
      onGone();
    });
  }

  /** Open, and its last answer read to its end without asking to close. */
  get reusable(): boolean {
    return !this.ended && this.answer === undefined;
  }

  exchange(request: string, timeoutMs: number, what: string): Promise<HttpReply> {
    const reused = this.used;
    this.used = true;
    return new Promise<HttpReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.destroy();
        reject(new Error(`no answer to ${what} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.answer = new AnswerReader(
        (reply, keepAlive) => {
          clearTimeout(timer);
          this.answer = undefined;
          if (!keepAlive) this.destroy();
          resolve(reply);
        },
        (err, readAnything) => {
          clearTimeout(timer);
          this.answer = undefined;
          reject(reused && !readAnything ? new StaleConnectionError(err.message) : err);
        },
      );
      if (this.ended) this.answer.fail(new Error('the server closed the connection'));
      else this.socket.write(request);
    });
  }

  destroy(): void {
    this.ended = true;
    this.socket.destroy();
  }

  private end(err: Error): void {
    this.ended = true;
    this.answer?.fail(err);
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Reads one HTTP/1.1 answer from the chunks of a socket: head, then a Content-Length or chunked body. */
class AnswerReader {
  private buffered: Buffer = Buffer.alloc(0);
  private head?: { status: number; keepAlive: boolean; retryAfter?: number; length?: number; chunked: boolean; bodyStart: number };
  private settled = false;

  constructor(
    private readonly done: (reply: HttpReply, keepAlive: boolean) => void,
    private readonly failed: (err: Error, readAnything: boolean) => void,
  ) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      if (!this.head) {
        const end = this.buffered.indexOf(HEAD_END);
        if (end < 0) return;
        this.head = parseHead(this.buffered.toString('latin1', 0, end), end + HEAD_END.length);
      }
      const body = this.head.chunked ? dechunk(this.buffered, this.head.bodyStart) : this.fixedBody();
      if (body === undefined) return;
      this.settled = true;
      const { status, retryAfter, keepAlive } = this.head;
      this.done({ status, body: body.toString('utf8'), ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) }, keepAlive);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.failed(err, this.buffered.length > 0);
  }

  private fixedBody(): Buffer | undefined {
    const { bodyStart, length = 0 } = this.head!;
    if (this.buffered.length < bodyStart + length) return undefined;
    if (this.buffered.length > bodyStart + length) throw new Error('the server sent more than one answer at once');
    return this.buffered.subarray(bodyStart, bodyStart + length);
  }
}

function parseHead(head: string, bodyStart: number): NonNullable<AnswerReader['head']> {
  const lines = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!status) throw new Error(`not an HTTP answer: ${lines[0]?.slice(0, 80)}`);
  let length: number | undefined;
  let chunked = false;
  let keepAlive = lines[0]!.startsWith('HTTP/1.1');
  let retryAfter: number | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase().includes('chunked');
    else if (name === 'connection') keepAlive = value.toLowerCase() !== 'close';
    else if (name === 'retry-after') retryAfter = Number(value);
  }
  return { status: Number(status[1]), keepAlive, retryAfter, length, chunked, bodyStart };
}

/** The body of a chunked answer once its last chunk is in, else undefined. */
function dechunk(buffered: Buffer, start: number): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffered.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffered.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size');
    const dataStart = lineEnd + 2;
    if (size === 0) {
      // The last chunk: no trailers are sent here, so the answer ends with one more CRLF.
      return buffered.length >= dataStart + 2 ? Buffer.concat(parts) : undefined;
    }
    if (buffered.length < dataStart + size + 2) return undefined;
    parts.push(buffered.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
