/**
 * The parsed aspect value of each change log this process's persister made, by identity. Through
 * the embedded log the projectors receive the very change log the persister appended, whose aspect
 * the persister had parsed and checked: they take that value instead of parsing its JSON again. A
 * change log decoded from a log, or made anywhere else, is a new object and is parsed.
 */
import type { MetadataChangeLog } from '@cairn/events';

const parsedAspects = new WeakMap<MetadataChangeLog, unknown>();

/** `value` is what `mcl.aspect.value` holds, parsed; nobody changes it afterwards. */
export function rememberParsedAspect(mcl: MetadataChangeLog, value: unknown): void {
  parsedAspects.set(mcl, value);
}

/** The change log's aspect value, parsed (null when it has none: a DELETE). */
export function aspectValueOf(mcl: MetadataChangeLog): unknown {
  if (mcl.changeType === 'DELETE' || !mcl.aspect) return null;
  return parsedAspects.has(mcl) ? parsedAspects.get(mcl) : JSON.parse(mcl.aspect.value);
}
