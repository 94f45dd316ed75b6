/** Rest.li 2.0 parameter syntax: `List(a,b)`, percent-encoded elements. */
import { splitTopLevel } from './urn';
import { badRequest } from './errors';

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badRequest(`Malformed percent-encoding in parameter: '${text}'`);
  }
}

/**
 * Parses a raw (still percent-encoded) query value of the form `List(e1,e2)`.
 * Elements are split on structural commas first, then decoded, so encoded `,()` inside
 * an element stay inside it. A fully encoded `List%28...%29` is decoded once first, and
 * plain (unencoded) nested URNs are split by parenthesis depth. A value without `List(`
 * is a single element.
 */
export function parseRestliList(raw: string): string[] {
  let text = raw.replace(/\+/g, '%20');
  if (!text.startsWith('List(') && decode(text).startsWith('List(')) text = decode(text);
  if (!text.startsWith('List(')) return text.length ? [decode(text)] : [];
  if (!text.endsWith(')')) throw badRequest(`Malformed list parameter: '${raw}'`);
  const inner = text.slice('List('.length, -1);
  if (inner.length === 0) return [];
  const parts = splitTopLevel(inner);
  if (!parts) throw badRequest(`Malformed list parameter (unbalanced parentheses): '${raw}'`);
  return parts.map(decode);
}

/** Raw (undecoded) values of a query parameter, taken from the request URL itself. */
export function rawQueryValues(url: string, name: string): string[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const out: string[] = [];
  for (const pair of url.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (decode(key) === name) out.push(eq < 0 ? '' : pair.slice(eq + 1));
  }
  return out;
}

/** A decoded scalar query parameter; the last one wins, as in Rest.li. */
export function queryParam(url: string, name: string): string | undefined {
  const values = rawQueryValues(url, name);
  return values.length ? decode(values[values.length - 1].replace(/\+/g, '%20')) : undefined;
}

/** A list-valued query parameter: `List(...)`, repeated params, or a single value. */
export function queryList(url: string, name: string): string[] | undefined {
  const values = rawQueryValues(url, name);
  if (!values.length) return undefined;
  return values.flatMap(parseRestliList);
}

export function parseIntParam(value: unknown, name: string, fallback?: number): number {
  if (value === undefined || value === null || value === '') {
    if (fallback === undefined) throw badRequest(`Parameter '${name}' is required`);
    return fallback;
  }
  // Decimal digits only, as Rest.li's Integer.parseInt: Number() would also take '0x10', '1e3' and ' '.
  const n = typeof value === 'number' ? value : /^[+-]?\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw badRequest(`Parameter '${name}' must be an integer, got '${String(value)}'`);
  return n;
}

export function parseBoolParam(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw badRequest(`Parameter '${name}' must be true or false, got '${String(value)}'`);
}
