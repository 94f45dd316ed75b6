/**
 * The parsed aspect value of each change log this thread's persister made, kept on the change log
 * object. Through the embedded log the projectors receive the very change log the persister
 * appended, whose aspect the persister had parsed and checked: they take that value instead of
 * parsing its JSON again. A change log decoded from a log, or made anywhere else, is a new object
 * and is parsed. A property rather than a WeakMap entry, for the reason in proposal-check.ts: the
 * value dies with its change log, or sooner, once its reader has taken it (`takeAspectValue`).
 */
import type { MetadataChangeLog } from '@cairn/events';

const PARSED = Symbol('parsed aspect');

type Parsed = MetadataChangeLog & { [PARSED]?: { value: unknown } };

/** `value` is what `mcl.aspect.value` holds, parsed; nobody changes it afterwards. */
export function rememberParsedAspect(mcl: MetadataChangeLog, value: unknown): void {
  Object.defineProperty(mcl, PARSED, { value: { value } });
}

/** The change log's aspect value, parsed (null when it has none: a DELETE). */
export function aspectValueOf(mcl: MetadataChangeLog): unknown {
  if (mcl.changeType === 'DELETE' || !mcl.aspect) return null;
  const parsed = (mcl as Parsed)[PARSED];
  return parsed && parsed.value !== undefined ? parsed.value : JSON.parse(mcl.aspect.value);
}

/**
 * The change log's aspect value as `aspectValueOf` answers it, no longer kept on the change log: its
 * one reader here (the search projector) takes it, and the log keeps the change log until the
 * batch's index writes are durable, hundreds of milliseconds in which the parsed value would be
 * copied by each young-generation collection. Read again, it is parsed again.
 */
export function takeAspectValue(mcl: MetadataChangeLog): unknown {
  const value = aspectValueOf(mcl);
  const parsed = (mcl as Parsed)[PARSED];
  if (parsed) parsed.value = undefined;
  return value;
}
