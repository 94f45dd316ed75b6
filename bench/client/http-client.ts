/**
 * A lean keep-alive HTTP client for the load generator (node:http; fetch costs the generator
 * more CPU per request, which it would take from the server on a small machine). Every request
 * has a deadline, so no loop waits forever.
 */
import { Agent, request } from 'node:http';

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
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  /** `authorization`: the Authorization header of every request, for a deployment with authentication on. */
  constructor(
    baseUrl: string,
    connections: number,
    private readonly timeoutMs = 60_000,
    private readonly authorization?: string,
  ) {
    const url = new URL(baseUrl);
    if (url.hostname !== '127.0.0.1') throw new Error(`the benchmark only talks to 127.0.0.1, not ${url.hostname}`);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  /**
   * A request on a kept-alive socket that the server closed at that moment (its idle timeout)
   * fails with ECONNRESET before anything was read: it is sent again once, on a fresh socket.
   */
  async send(method: 'GET' | 'POST', path: string, body?: string): Promise<HttpReply> {
    try {
      return await this.sendOnce(method, path, body);
    } catch (err) {
      if (!(err instanceof StaleSocketError)) throw err;
      return this.sendOnce(method, path, body);
    }
  }

  private sendOnce(method: 'GET' | 'POST', path: string, body?: string): Promise<HttpReply> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          timeout: this.timeoutMs,
          headers: {
            'X-RestLi-Protocol-Version': '2.0.0',
            ...(this.authorization ? { Authorization: this.authorization } : {}),
            ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const retryAfter = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ...(retryAfter !== undefined ? { retryAfterSeconds: Number(retryAfter) } : {}),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer to ${method} ${path.slice(0, 80)} in ${this.timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) =>
        reject(req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') ? new StaleSocketError(err.message) : err),
      );
      req.end(body);
    });
  }

  /** A JSON answer of a 2xx reply; anything else throws. */
  async json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const reply = await this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
    if (reply.status < 200 || reply.status >= 300) throw new HttpError(reply.status, reply.body);
    return (reply.body ? JSON.parse(reply.body) : undefined) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

class StaleSocketError extends Error {}
