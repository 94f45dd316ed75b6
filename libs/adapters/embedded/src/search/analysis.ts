/**
 * Text analysis of the embedded search engine: which field values become full-text words, exact
 * lookup terms and filterable values, and the word-index expressions of queries. Words themselves
 * are split by `@cairn/search`'s rules, the same for values and queries.
 */
import type { SearchFieldType } from '@cairn/core';
import type { IndexFieldMapping, SearchFields } from '@cairn/ports';
import { indexWords, scalarValues, urnComponents } from '@cairn/search';

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

/** A field's value analysed: its filterable values, lookup terms and words. */
export interface FieldAnalysis {
  readonly values: string[];
  readonly terms: ReadonlySet<string>;
  readonly words: string[];
}

/**
 * `allTerms`: also the lookup terms of a field no whole-value lookup reads (a description), which
 * are written without them but may hold some an earlier version wrote.
 */
export function analyseField(mapping: IndexFieldMapping | undefined, value: unknown, allTerms: boolean): FieldAnalysis {
  const values = value === undefined ? [] : scalarValues(value);
  const terms = new Set<string>();
  if (allTerms || mapping?.lookupTerms !== false)
    for (const v of values) {
      if (v.length <= MAX_VALUE_LENGTH) terms.add(v.toLowerCase());
      if (isUrnType(mapping?.type)) for (const c of urnComponents(v)) terms.add(c.toLowerCase());
    }
  const words = value === undefined ? [] : fieldWords(mapping?.type, value);
  return { values: filterableValues(values), terms, words };
}

/**
 * The lookup terms a field writes: those equal to none of its values, which are found through the
 * value rows (most values are lower case already).
 */
export function writtenTerms(values: readonly string[], terms: ReadonlySet<string>): string[] {
  const valueSet = new Set(values);
  return [...terms].filter((t) => !valueSet.has(t));
}

/** What a field's value writes: its filterable values, the lookup terms it writes, and its words as one text. */
export interface FieldRows {
  readonly values: string[];
  readonly terms: string[];
  readonly words: string;
}

export function fieldRows(mapping: IndexFieldMapping | undefined, value: unknown): FieldRows {
  const { values, terms, words } = analyseField(mapping, value, false);
  return { values, terms: writtenTerms(values, terms), words: words.join(' ') };
}

/** The rows of each field a write sets (not those it removes), by the entity type's mappings. */
export function rowsOfFields(mappings: ReadonlyMap<string, IndexFieldMapping> | undefined, fields: SearchFields): Record<string, FieldRows> {
  const rows: Record<string, FieldRows> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== null && value !== undefined) rows[name] = fieldRows(mappings?.get(name), value);
  return rows;
}
