/**
 * The parsed aspect value of each change log this thread's persister made, kept on the change log
 * object. Through the embedded log the projectors receive the very change log the persister
 * appended, whose aspect the persister had parsed and checked: they take that value instead of
 * parsing its JSON again. A change log decoded from a log, or made anywhere else, is a new object
 * and is parsed. A property rather than a WeakMap entry, for the reason in proposal-check.ts: the
 * value dies with its change log.
 */
import type { MetadataChangeLog } from '@cairn/events';

const PARSED = Symbol('parsed aspect');

type Parsed = MetadataChangeLog & { [PARSED]?: unknown };

/** `value` is what `mcl.aspect.value` holds, parsed; nobody changes it afterwards. */
export function rememberParsedAspect(mcl: MetadataChangeLog, value: unknown): void {
  Object.defineProperty(mcl, PARSED, { value });
}

/** The change log's aspect value, parsed (null when it has none: a DELETE). */
export function aspectValueOf(mcl: MetadataChangeLog): unknown {
  if (mcl.changeType === 'DELETE' || !mcl.aspect) return null;
  return PARSED in mcl ? (mcl as Parsed)[PARSED] : JSON.parse(mcl.aspect.value);
}
