/**
 * `POST /aspects?action=ingestProposal`, the request producers send most, answered in Node's HTTP
 * server without express's per-request work: routing, request and response objects and the body
 * middleware cost about 100 µs of CPU a request on a small machine, and the objects they leave
 * outlive young-generation collections, so the old generation fills and its collections stall the
 * thread (docs/performance.md). The answer is the express route's: the same action, headers and
 * error answer. Only requests express would handle no differently come this way while
 * authentication is off; a request with an `Origin` (CORS), a body without a declared length or
 * over the limit, a compressed or non-UTF-8 body, or any other path goes to express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import { errorAnswer, RESTLI_PROTOCOL_HEADER, RESTLI_PROTOCOL_VERSION } from './app';
import type { CatalogContext } from './context';
import { actionParams } from './http';
import { ingestProposal } from './routes/aspects';

export const DIRECT_INGEST_URL = '/aspects?action=ingestProposal';
/** The express route's path, for the request metrics' label. */
export const DIRECT_INGEST_ROUTE = '/aspects';

/** Starts timing a request; the function it returns records the request's answer. */
export type RequestTimer = () => (status: number) => void;

/** Answers the request and returns true, or returns false (untouched) for express to handle. */
export type DirectHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const JSON_TYPE = 'application/json; charset=utf-8';

function isDirect(req: IncomingMessage, maxBodyBytes: number): boolean {
  if (req.method !== 'POST' || req.url !== DIRECT_INGEST_URL || req.headers.origin !== undefined) return false;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) return false;
  const length = req.headers['content-length'];
  return length !== undefined && /^\d+$/.test(length) && Number(length) <= maxBodyBytes;
}

/** The direct path of a catalog whose authentication is off (every request acts as the system). */
export function directIngest(ctx: CatalogContext, timer?: RequestTimer): DirectHandler {
  const { maxBodyBytes, exposeStackTraces } = ctx.info;
  return (req, res) => {
    if (!isDirect(req, maxBodyBytes)) return false;
    const recorded = timer?.();
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        [RESTLI_PROTOCOL_HEADER]: RESTLI_PROTOCOL_VERSION,
        ...headers,
        'Content-Type': JSON_TYPE,
        'Content-Length': String(Buffer.byteLength(text)),
      });
      res.end(text);
      recorded?.(status);
    };
    const fail = (err: unknown) => {
      const e = errorAnswer(err, exposeStackTraces);
      answer(e.status, e.body, e.headers);
    };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', fail);
    req.on('end', () => {
      let parsed: unknown;
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        // As express's JSON parser: an empty body is no parameters.
        parsed = text.length === 0 ? {} : JSON.parse(text);
      } catch (err) {
        return fail({ type: 'entity.parse.failed', message: (err as Error).message });
      }
      let params: Record<string, unknown>;
      try {
        params = actionParams(parsed);
      } catch (err) {
        return fail(err);
      }
      ingestProposal(ctx, params, SYSTEM_ACTOR).then((value) => answer(200, { value }), fail);
    });
    return true;
  };
}
