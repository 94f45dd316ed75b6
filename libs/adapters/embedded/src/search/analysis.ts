/**
 * Text analysis of the embedded search engine: how field values become full-text words, exact
 * lookup terms and filterable values. Queries go through the same functions, so both sides agree.
 */
import { parseUrn, UrnSyntaxError, type SearchFieldType } from '@cairn/core';

/** Longer values are neither filterable nor exact terms (like a keyword field's `ignore_above`). */
export const MAX_VALUE_LENGTH = 512;

const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Boundaries inside a word: `sampleKafka`, `HTTPServer`, `v2beta`. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/**
 * The words of a value, in order; a compound word is followed by its parts, so `SampleKafkaDataset`
 * is found by `samplekafka`, `kafka` and the phrase `kafka dataset`.
 */
export function indexWords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(NON_WORD)) {
    if (!word) continue;
    out.push(word.toLowerCase());
    const parts = word.split(CAMEL);
    if (parts.length > 1) out.push(...parts.map((p) => p.toLowerCase()));
  }
  return out;
}

/** The words of a query term: compounds are split into their parts, which must follow each other. */
export function queryWords(text: string): string[] {
  return text
    .split(NON_WORD)
    .filter((w) => w.length > 0)
    .flatMap((w) => w.split(CAMEL))
    .map((w) => w.toLowerCase());
}

/** An FTS5 expression: the words as one phrase, the last a prefix when asked. */
export function phraseQuery(words: readonly string[], prefix: boolean): string {
  return `"${words.join(' ').replace(/"/g, '""')}"${prefix ? ' *' : ''}`;
}

/** Every word must occur in the row, the last as a prefix (autocomplete). */
export function allWordsQuery(words: readonly string[]): string {
  return words.map((w, i) => `"${w.replace(/"/g, '""')}"${i === words.length - 1 ? ' *' : ''}`).join(' AND ');
}

/** The components a URN is found by in `field:value` search: its key parts, nested URNs' parts too. */
export function urnComponents(value: string): string[] {
  try {
    const urn = parseUrn(value);
    return urn.parts.flatMap((p) => [p, ...(p.startsWith('urn:') ? urnComponents(p) : [])]);
  } catch (err) {
    if (err instanceof UrnSyntaxError) return [];
    throw err;
  }
}

/** The scalar values of a document field (arrays spread, booleans and numbers as text). */
export function scalarValues(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => v !== null && v !== undefined).map((v) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)));
}

export function numericValue(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Types whose values are searched as words (unmapped fields are, too). */
const NOT_FULLTEXT: ReadonlySet<SearchFieldType> = new Set(['BOOLEAN', 'COUNT', 'DATETIME', 'DOUBLE', 'OBJECT', 'BROWSE_PATH', 'BROWSE_PATH_V2']);

export function isFulltext(type: SearchFieldType | undefined): boolean {
  return type === undefined || !NOT_FULLTEXT.has(type);
}

export function isUrnType(type: SearchFieldType | undefined): boolean {
  return type === 'URN' || type === 'URN_PARTIAL';
}
