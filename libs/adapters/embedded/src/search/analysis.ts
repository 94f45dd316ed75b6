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
 * The words of a value in order, then the parts of its compound words: `SampleKafkaDataset` is
 * found by `samplekafka`, by `kafka` and by the phrase `kafka dataset`, and whole words keep their
 * order for phrases.
 */
export function indexWords(text: string): string[] {
  const words = wordsOf(text);
  const parts = words.flatMap((w) => {
    const split = w.split(CAMEL);
    return split.length > 1 ? split : [];
  });
  return [...words, ...parts].map((w) => w.toLowerCase());
}

function wordsOf(text: string): string[] {
  return text.split(NON_WORD).filter((w) => w.length > 0);
}

/**
 * The ways a query term can match, each a list of words that must follow each other: its whole
 * words, and, when it has compound words, their parts.
 */
export function queryForms(text: string): string[][] {
  const words = wordsOf(text);
  const whole = words.map((w) => w.toLowerCase());
  const parts = words.flatMap((w) => w.split(CAMEL)).map((w) => w.toLowerCase());
  if (whole.length === 0) return [];
  return parts.length === whole.length ? [whole] : [whole, parts];
}

const quoted = (w: string) => `"${w.replace(/"/g, '""')}"`;

/** An FTS5 expression: any form as a phrase, its last word a prefix when asked. */
export function phraseQuery(forms: readonly string[][], prefix: boolean): string {
  return forms.map((f) => `${quoted(f.join(' '))}${prefix ? ' *' : ''}`).join(' OR ');
}

/** Any form with all its words in the row, in any order, the last a prefix (autocomplete). */
export function allWordsQuery(forms: readonly string[][]): string {
  return forms.map((f) => `(${f.map((w, i) => `${quoted(w)}${i === f.length - 1 ? ' *' : ''}`).join(' AND ')})`).join(' OR ');
}

/** Whether a value holds a form's words, the last as a prefix of one of its words. */
export function holdsWords(value: string, forms: readonly string[][]): boolean {
  const words = indexWords(value);
  return forms.some((f) => f.every((q) => words.some((w) => w.startsWith(q))));
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

function isFulltext(type: SearchFieldType | undefined): boolean {
  return type === undefined || !NOT_FULLTEXT.has(type);
}

/** The words of a field's value as the word index holds them (none for a field not searched as words). */
export function fieldWords(type: SearchFieldType | undefined, value: unknown): string[] {
  return isFulltext(type) ? scalarValues(value).flatMap(indexWords) : [];
}

export function isUrnType(type: SearchFieldType | undefined): boolean {
  return type === 'URN' || type === 'URN_PARTIAL';
}
