/**
 * What the aspect store keeps of the proposal that last wrote an aspect, so that a proposal
 * delivered again is recognised even when later proposals to the same aspect were applied after
 * it (a consumer that died after applying a batch but before committing its position gets the
 * whole batch again).
 *
 * A mark is `<partition>:<offset>@<log time>`, with an optional `/<part>` suffix for writes a
 * proposal makes besides its own aspect (the entity's key). Within one partition a smaller offset
 * was applied first. The log time guards against a log that was emptied and started its offsets
 * again while the store kept its rows: a record appended after that is newer than every stored mark.
 */

export function proposalMark(position: string, logTime: number, part?: string): string {
  return `${position}@${logTime}${part ? `/${part}` : ''}`;
}

interface ParsedMark {
  readonly partition: string;
  readonly offset: bigint;
  readonly logTime: number;
}

const MARK = /^(\d+):(\d+)@(\d+)(?:\/.*)?$/;

function parse(mark: string): ParsedMark | undefined {
  const m = MARK.exec(mark);
  return m ? { partition: m[1]!, offset: BigInt(m[2]!), logTime: Number(m[3]) } : undefined;
}

/**
 * Whether the proposal marked `incoming` is already reflected by an aspect whose last write was
 * marked `stored`: the same proposal, or an earlier one of the same partition. Marks that cannot
 * be ordered (another partition, or an older form) only match themselves.
 */
export function alreadyApplied(stored: string, incoming: string): boolean {
  if (stored === incoming) return true;
  const s = parse(stored);
  const i = parse(incoming);
  if (!s || !i || s.partition !== i.partition) return false;
  return i.offset < s.offset && i.logTime <= s.logTime;
}
