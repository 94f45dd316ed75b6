/**
 * Text analysis of the embedded search engine: which field values become full-text words, exact
 * lookup terms and filterable values, and the word-index expressions of queries. Words themselves
 * are split by `@cairn/search`'s rules, the same for values and queries.
 */
import type { SearchFieldType } from '@cairn/core';
import { indexWords, scalarValues } from '@cairn/search';

/** Longer values are neither filterable nor exact terms (like a keyword field's `ignore_above`). */
export const MAX_VALUE_LENGTH = 512;

/** The filterable values of a field's scalar values: those short enough, once each. */
export function filterableValues(scalars: readonly string[]): string[] {
  return [...new Set(scalars.filter((v) => v.length <= MAX_VALUE_LENGTH))];
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
  if (!isFulltext(type)) return [];
  const values = scalarValues(value);
  if (values.length === 1) return indexWords(values[0]);
  // Every field of every document written comes here: a loop, not flatMap, which costs several times more.
  const words: string[] = [];
  for (const v of values) for (const w of indexWords(v)) words.push(w);
  return words;
}

export function isUrnType(type: SearchFieldType | undefined): boolean {
  return type === 'URN' || type === 'URN_PARTIAL';
}
