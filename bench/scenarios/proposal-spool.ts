/**
 * A catalog's proposals written out as their senders send them (request-ready JSON for a REST
 * ingest, framed Avro for a Kafka producer) before an ingest starts, and read back in order while
 * it runs. The load generator shares the two cores with the catalog: making and serializing a
 * proposal while the clients send cost it about 60 µs of CPU a proposal over REST (half of its
 * share), and making and encoding one for Kafka about 70 of the 180 to 310 µs it spent a proposal
 * at 2,000/s, which the catalog then lacked. Kept in a file rather than in memory because a 100k
 * catalog's proposals are more than a gigabyte of JSON.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { MetadataChangeProposal } from '@cairn/events';

/** One proposal as the ingest sends it. */
export interface SpooledProposal {
  readonly entityUrn: string;
  /** The first proposal of its entity: its entity becomes searchable with it. */
  readonly createsEntity: boolean;
  /** The proposal as the spool's `serialize` wrote it (JSON text unless told otherwise). */
  readonly body: string;
}

/** A proposal as one line's text: neither a tab nor a line break in it. */
export type SpoolSerializer = (proposal: MetadataChangeProposal) => string;

const CHUNK_BYTES = 1 << 20;

/** Writes the entities' proposals (those `keep` accepts, an entity's in order) to `file`; `chunkBytes`: the reads' size. */
export function spoolProposals(
  entities: Iterable<{ readonly proposals: readonly MetadataChangeProposal[] }>,
  file: string,
  keep: (p: MetadataChangeProposal) => boolean = () => true,
  chunkBytes = CHUNK_BYTES,
  serialize: SpoolSerializer = JSON.stringify,
): ProposalSpool {
  const fd = openSync(file, 'w');
  try {
    let lines: string[] = [];
    let pending = 0;
    const flush = () => {
      writeSync(fd, lines.join(''));
      lines = [];
      pending = 0;
    };
    for (const entity of entities) {
      let first = true;
      for (const proposal of entity.proposals) {
        if (!keep(proposal)) continue;
        const line = spoolLine(proposal, first, serialize);
        first = false;
        lines.push(line);
        pending += line.length;
        if (pending >= CHUNK_BYTES) flush();
      }
    }
    flush();
  } catch (err) {
    // A spool cut short is no catalog to send: it goes, as a read one does.
    closeSync(fd);
    rmSync(file, { force: true });
    throw err;
  }
  closeSync(fd);
  return new ProposalSpool(file, chunkBytes);
}

/** `+` or `-` (whether it creates its entity), the URN, a tab, the serialized proposal. */
function spoolLine(proposal: MetadataChangeProposal, createsEntity: boolean, serialize: SpoolSerializer): string {
  const urn = proposal.entityUrn;
  if (urn === undefined || /[\t\n]/.test(urn)) throw new Error(`cannot spool a proposal whose URN is ${JSON.stringify(urn)}`);
  const body = serialize(proposal);
  if (body.includes('\n')) throw new Error(`cannot spool a proposal serialized over several lines (${urn})`);
  return `${createsEntity ? '+' : '-'}${urn}\t${body}\n`;
}

function parseLine(line: string): SpooledProposal {
  const tab = line.indexOf('\t');
  return { createsEntity: line[0] === '+', entityUrn: line.slice(1, tab), body: line.slice(tab + 1) };
}

/** The spooled proposals, taken in order one or a batch at a time; the file goes once read to its end or closed. */
export class ProposalSpool {
  /** Entities whose first proposal has been taken. */
  entities = 0;
  private fd: number | undefined;
  private readonly chunk: Buffer;
  private readonly decoder = new StringDecoder('utf8');
  private text = '';
  private at = 0;
  private ahead: SpooledProposal | undefined;

  constructor(
    private readonly file: string,
    chunkBytes: number,
  ) {
    this.chunk = Buffer.alloc(chunkBytes);
    this.fd = openSync(file, 'r');
  }

  take(count: number): SpooledProposal[] {
    const out: SpooledProposal[] = [];
    while (out.length < count) {
      const next = this.next();
      if (!next) break;
      out.push(next);
    }
    return out;
  }

  /** Every proposal of the next `count` entities (the first may have begun in an earlier take). */
  takeEntities(count: number): SpooledProposal[] {
    const out: SpooledProposal[] = [];
    let started = 0;
    for (;;) {
      const next = this.peek();
      if (!next || (next.createsEntity && started === count)) return out;
      if (next.createsEntity || out.length === 0) started++;
      out.push(this.next()!);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.file, { force: true });
  }

  private next(): SpooledProposal | undefined {
    const next = this.peek();
    if (!next) return undefined;
    this.ahead = undefined;
    if (next.createsEntity) this.entities++;
    return next;
  }

  private peek(): SpooledProposal | undefined {
    if (!this.ahead) {
      const line = this.line();
      if (line === undefined) return undefined;
      this.ahead = parseLine(line);
    }
    return this.ahead;
  }

  private line(): string | undefined {
    for (;;) {
      const end = this.text.indexOf('\n', this.at);
      if (end >= 0) {
        const line = this.text.slice(this.at, end);
        this.at = end + 1;
        return line;
      }
      if (this.fd === undefined) return undefined;
      const read = readSync(this.fd, this.chunk, 0, this.chunk.length, null);
      if (read === 0) {
        this.close();
        continue;
      }
      this.text = this.text.slice(this.at) + this.decoder.write(this.chunk.subarray(0, read));
      this.at = 0;
    }
  }
}
