/**
 * Guards for every caller value that goes into a query: a string or a version number, nothing
 * else, so no value (an object from untyped JSON, say) can act as a query operator.
 */

export function text(value: string, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeof value}`);
  return value;
}

export function versionNumber(value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`version must be a non-negative integer, got ${String(value)}`);
  return value;
}
