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

/**
 * Why `raw` is no URN, or undefined when it is one, decided without building its parts: validation
 * asks it of every URN field of every aspect written.
 */
function urnSyntaxError(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !raw.startsWith(URN_PREFIX)) return `Invalid urn: '${String(raw)}'. Urns must start with '${URN_PREFIX}'`;
  const typeStart = URN_PREFIX.length;
  const colon = raw.indexOf(':', typeStart);
  if (colon <= typeStart) return `Invalid urn: '${raw}'. Missing entity type or key`;
  for (let i = typeStart; i < colon; i++) {
    const c = raw.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!(letter || (i > typeStart && ((c >= 48 && c <= 57) || c === 95)))) return `Invalid urn: '${raw}'. Bad entity type '${raw.slice(typeStart, colon)}'`;
  }
  const idStart = colon + 1;
  if (idStart >= raw.length) return `Invalid urn: '${raw}'. Empty key`;
  if (raw.charCodeAt(idStart) !== 40) return undefined;
  const end = raw.length - 1;
  if (end === idStart || raw.charCodeAt(end) !== 41) return `Invalid urn: '${raw}'. Unterminated key tuple`;
  // The tuple's elements (as `splitTopLevel` splits them): balanced parentheses, none empty.
  let depth = 0;
  let elementLength = 0;
  let emptyElement = false;
  for (let i = idStart + 1; i < end; i++) {
    const c = raw.charCodeAt(i);
    if (c === 44 && depth === 0) {
      if (elementLength === 0) emptyElement = true;
      elementLength = 0;
      continue;
    }
    if (c === 40) depth++;
    else if (c === 41 && --depth < 0) break;
    elementLength++;
  }
  if (depth !== 0) return `Invalid urn: '${raw}'. Unbalanced parentheses in key tuple`;
  if (emptyElement || elementLength === 0) return `Invalid urn: '${raw}'. Empty element in key tuple`;
  return undefined;
}

export function parseUrn(raw: string): Urn {
  const error = urnSyntaxError(raw);
  if (error) throw new UrnSyntaxError(error);
  const rest = raw.slice(URN_PREFIX.length);
  const colon = rest.indexOf(':');
  const entityType = rest.slice(0, colon);
  const id = rest.slice(colon + 1);
  return { raw, entityType, id, parts: id.startsWith('(') ? splitTopLevel(id.slice(1, -1))! : [id] };
}

export function isUrn(value: unknown): value is string {
  return urnSyntaxError(value) === undefined;
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
