/** URN parsing and formatting: `urn:li:<entityType>:<key>` where a multi-part key is `(<p1>,<p2>,...)`. */

export const URN_PREFIX = 'urn:li:';

export interface Urn {
  /** The whole URN as given. */
  readonly raw: string;
  readonly entityType: string;
  /** Everything after `urn:li:<entityType>:`. */
  readonly id: string;
  /** The key parts: one for a simple key, the top-level tuple elements for `(a,b,c)`. */
  readonly parts: readonly string[];
}

export class UrnSyntaxError extends Error {}

/** Splits `a,(b,c),d` at top-level commas; parentheses nest. Returns null when unbalanced. */
export function splitTopLevel(text: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) return null;
    } else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  parts.push(text.slice(start));
  return parts;
}

export function parseUrn(raw: string): Urn {
  if (typeof raw !== 'string' || !raw.startsWith(URN_PREFIX)) {
    throw new UrnSyntaxError(`Invalid urn: '${String(raw)}'. Urns must start with '${URN_PREFIX}'`);
  }
  const rest = raw.slice(URN_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new UrnSyntaxError(`Invalid urn: '${raw}'. Missing entity type or key`);
  const entityType = rest.slice(0, colon);
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(entityType)) {
    throw new UrnSyntaxError(`Invalid urn: '${raw}'. Bad entity type '${entityType}'`);
  }
  const id = rest.slice(colon + 1);
  if (id.length === 0) throw new UrnSyntaxError(`Invalid urn: '${raw}'. Empty key`);
  let parts: string[];
  if (id.startsWith('(')) {
    if (!id.endsWith(')')) throw new UrnSyntaxError(`Invalid urn: '${raw}'. Unterminated key tuple`);
    const inner = splitTopLevel(id.slice(1, -1));
    if (!inner) throw new UrnSyntaxError(`Invalid urn: '${raw}'. Unbalanced parentheses in key tuple`);
    if (inner.some((p) => p.length === 0)) throw new UrnSyntaxError(`Invalid urn: '${raw}'. Empty element in key tuple`);
    parts = inner;
  } else {
    parts = [id];
  }
  return { raw, entityType, id, parts };
}

/**
 * Whether `parseUrn` takes the value, decided without building its parts: validation asks it of
 * every URN field of every aspect written.
 */
export function isUrn(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith(URN_PREFIX)) return false;
  const typeStart = URN_PREFIX.length;
  const colon = value.indexOf(':', typeStart);
  if (colon <= typeStart) return false;
  for (let i = typeStart; i < colon; i++) {
    const c = value.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!(letter || (i > typeStart && ((c >= 48 && c <= 57) || c === 95)))) return false;
  }
  const idStart = colon + 1;
  if (idStart >= value.length) return false;
  if (value.charCodeAt(idStart) !== 40) return true;
  const end = value.length - 1;
  if (end === idStart || value.charCodeAt(end) !== 41) return false;
  // The tuple's elements: balanced parentheses, none empty.
  let depth = 0;
  let elementLength = 0;
  for (let i = idStart + 1; i < end; i++) {
    const c = value.charCodeAt(i);
    if (c === 44 && depth === 0) {
      if (elementLength === 0) return false;
      elementLength = 0;
      continue;
    }
    if (c === 40) depth++;
    else if (c === 41 && --depth < 0) return false;
    elementLength++;
  }
  return depth === 0 && elementLength > 0;
}

export function formatUrn(entityType: string, parts: readonly string[]): string {
  const key = parts.length === 1 ? parts[0] : `(${parts.join(',')})`;
  return `${URN_PREFIX}${entityType}:${key}`;
}

/** The entity type of a URN string, or null when it is not a URN. */
export function entityTypeOf(raw: string): string | null {
  try {
    return parseUrn(raw).entityType;
  } catch {
    return null;
  }
}
