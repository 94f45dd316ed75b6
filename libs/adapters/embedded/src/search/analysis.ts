/**
 * Text analysis of the embedded search engine: which field values become full-text words, exact
 * lookup terms and filterable values, and the word-index expressions of queries. Words themselves
 * are split by `@cairn/search`'s rules, the same for values and queries.
 */
import type { SearchFieldType } from '@cairn/core';
import type { IndexFieldMapping, SearchFields } from '@cairn/ports';
import { indexText, scalarValues, urnComponents } from '@cairn/search';
import type { FieldLayout } from './search-tables';
import { termTokenText, valueTokenText } from './value-tokens';

/** Longer values are neither filterable nor exact terms (like a keyword field's `ignore_above`). */
export const MAX_VALUE_LENGTH = 512;

/** The filterable values of a field's scalar values: those short enough, once each. */
export function filterableValues(scalars: readonly string[]): string[] {
  // Most fields hold one value: no set to keep them once each.
  if (scalars.length === 1) return scalars[0]!.length <= MAX_VALUE_LENGTH ? [scalars[0]!] : [];
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

/** The text of a field's value the word index tokenizes (`indexText`); empty for a field not searched as words, or without words. */
export function fieldWordText(type: SearchFieldType | undefined, value: unknown): string {
  return wordTextOf(type, scalarValues(value));
}

function wordTextOf(type: SearchFieldType | undefined, scalars: readonly string[]): string {
  if (!isFulltext(type)) return '';
  if (scalars.length === 1) return indexText(scalars[0]!);
  const texts: string[] = [];
  for (const v of scalars) {
    const text = indexText(v);
    if (text) texts.push(text);
  }
  return texts.join(' ');
}

export function isUrnType(type: SearchFieldType | undefined): boolean {
  return type === 'URN' || type === 'URN_PARTIAL';
}

/** A field's value analysed: its filterable values, lookup terms and the text of its words (`fieldWordText`). */
export interface FieldAnalysis {
  readonly values: string[];
  readonly terms: ReadonlySet<string>;
  readonly words: string;
}

/**
 * `allTerms`: also the lookup terms of a field no whole-value lookup reads (a description), which
 * are written without them but may hold some an earlier version wrote.
 */
export function analyseField(mapping: IndexFieldMapping | undefined, value: unknown, allTerms: boolean): FieldAnalysis {
  const scalars = value === undefined ? [] : scalarValues(value);
  const terms = allTerms || mapping?.lookupTerms !== false ? lookupTerms(mapping, scalars) : new Set<string>();
  return { values: filterableValues(scalars), terms, words: wordTextOf(mapping?.type, scalars) };
}

/** The lookup terms of a field's scalar values: each short value lower-cased, a URN's components too. */
function lookupTerms(mapping: IndexFieldMapping | undefined, scalars: readonly string[]): Set<string> {
  const terms = new Set<string>();
  for (const v of scalars) {
    if (v.length <= MAX_VALUE_LENGTH) terms.add(v.toLowerCase());
    if (isUrnType(mapping?.type)) for (const c of urnComponents(v)) terms.add(c.toLowerCase());
  }
  return terms;
}

/**
 * The lookup terms a field writes: those equal to none of its values, which are found through the
 * value rows (most values are lower case already).
 */
export function writtenTerms(values: readonly string[], terms: ReadonlySet<string>): string[] {
  if (terms.size === 0) return [];
  if (values.length === 1 && terms.size === 1) return terms.has(values[0]!) ? [] : [...terms];
  const valueSet = new Set(values);
  return [...terms].filter((t) => !valueSet.has(t));
}

/**
 * What a field's value writes: its filterable values, the lookup terms it writes, the text of its
 * words, and, where the mappings lay the field out so (`layoutOfMapping`), its values or terms spelt
 * as tokens: spelt by the thread that analyses the field, which in a rebuild is not the writer, the
 * rebuild's bound (their hexadecimal spelling was about 6% of its time).
 */
export interface FieldRows {
  readonly values: string[];
  readonly terms: string[];
  readonly words: string;
  /** `valueTokenText(values)`, for a field laid out with value tokens that has values. */
  readonly valueTokens: string | undefined;
  /** `termTokenText(terms)`, for a field laid out with term tokens that writes terms. */
  readonly termTokens: string | undefined;
}

/** Where the mappings put a field's exact values and lookup terms (see `FieldRegistry.layoutOf`). */
export function layoutOfMapping(mapping: IndexFieldMapping | undefined): FieldLayout {
  const manyValues = mapping?.manyValues === true;
  return { valueTokens: manyValues, termTokens: !manyValues && mapping?.prefixLookups !== true };
}

export function fieldRows(mapping: IndexFieldMapping | undefined, value: unknown): FieldRows {
  const scalars = value === undefined ? [] : scalarValues(value);
  const values = filterableValues(scalars);
  const words = wordTextOf(mapping?.type, scalars);
  return spelt(mapping, values, writtenTermsOf(mapping, scalars, values), words);
}

function writtenTermsOf(mapping: IndexFieldMapping | undefined, scalars: readonly string[], values: readonly string[]): string[] {
  if (mapping?.lookupTerms === false) return [];
  // One value that is no URN, as most are: its one term is written unless it is the value itself.
  if (scalars.length === 1 && !isUrnType(mapping?.type)) {
    const only = scalars[0]!;
    const term = only.length <= MAX_VALUE_LENGTH ? only.toLowerCase() : undefined;
    return term === undefined || term === only ? [] : [term];
  }
  return writtenTerms(values, lookupTerms(mapping, scalars));
}

function spelt(mapping: IndexFieldMapping | undefined, values: string[], terms: string[], words: string): FieldRows {
  const layout = layoutOfMapping(mapping);
  return {
    values,
    terms,
    words,
    valueTokens: layout.valueTokens && values.length > 0 ? valueTokenText(values) : undefined,
    termTokens: layout.termTokens && terms.length > 0 ? termTokenText(terms) : undefined,
  };
}

/** The rows of each field a write sets (not those it removes), by the entity type's mappings. */
export function rowsOfFields(mappings: ReadonlyMap<string, IndexFieldMapping> | undefined, fields: SearchFields): Record<string, FieldRows> {
  const rows: Record<string, FieldRows> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== null && value !== undefined) rows[name] = fieldRows(mappings?.get(name), value);
  return rows;
}
