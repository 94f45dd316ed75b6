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

export function isUrn(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    parseUrn(value);
    return true;
  } catch {
    return false;
  }
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
