/**
 * Admission of request bodies by the memory they will take. Node reads every connection's request
 * as it arrives, so under far more clients than the catalog can serve every waiting request's body
 * sat in memory, parsed and checked, and each waited behind all the others: 10,000 clients held
 * 873 MB and waited up to 39 s (docs/performance.md, Overload). A body that would take the
 * bytes in flight over the bound is answered 429 with Retry-After before it is read (Node then
 * reads it off the connection and drops it), so memory and the wait stay bounded by configuration,
 * whatever the number of clients. A request is counted until its answer is sent, not until its body
 * has come: one without valid credentials, answered 401 at once, holds none of the bound however
 * slowly it sends its body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TooManyRequests } from '@cairn/pipeline';
import { answerer, failer, type DirectHandler, type RequestTimer } from './direct-routes';

export interface BodyAdmissionLimits {
  /** Bytes of request bodies being read or handled at once; a body larger still is admitted alone. */
  readonly maxInflightBytes: number;
  /** What a body of undeclared length (chunked) is counted as: it may be this large. */
  readonly unknownLengthBytes: number;
  readonly retryAfterSeconds: number;
}

export class BodyAdmission {
  private inflight = 0;

  constructor(private readonly limits: BodyAdmissionLimits) {}

  /** Bytes of the admitted requests not yet answered. */
  get inflightBytes(): number {
    return this.inflight;
  }

  /**
   * Counts the request's body until its answer is sent (or its connection closes) and returns false,
   * or answers 429 and returns true when the body does not fit now.
   */
  refuse(req: IncomingMessage, res: ServerResponse, timer?: RequestTimer): boolean {
    const bytes = this.bodyBytes(req);
    if (bytes === 0) return false;
    if (this.inflight > 0 && this.inflight + bytes > this.limits.maxInflightBytes) {
      const mb = (n: number) => (n / 1048576).toFixed(1);
      const refusal = new TooManyRequests(
        `Too many request bytes in flight (${mb(this.inflight)} MB of ${mb(this.limits.maxInflightBytes)} MB); retry later`,
        this.limits.retryAfterSeconds,
      );
      failer(answerer(res, timer?.(req.method ?? 'POST', '(refused: request bytes in flight)')), false)(refusal);
      return true;
    }
    this.inflight += bytes;
    res.once('close', () => {
      this.inflight -= bytes;
    });
    return false;
  }

  private bodyBytes(req: IncomingMessage): number {
    const length = req.headers['content-length'];
    // Node's parser has refused a request whose length is not a number.
    if (length !== undefined) return Number(length);
    return req.headers['transfer-encoding'] !== undefined ? this.limits.unknownLengthBytes : 0;
  }
}

/** `next` behind the admission of bodies: what it refuses never reaches `next`. */
export function admittingBodies(admission: BodyAdmission, next: DirectHandler | undefined, timer?: RequestTimer): DirectHandler {
  return (req, res) => admission.refuse(req, res, timer) || (next?.(req, res) ?? false);
}
