/**
 * Words of values and queries on the client side, by the embedded engine's rules: the forms a
 * query term matches in, and which value of a field holds them (matched fields, autocomplete
 * suggestions).
 */
import { parseUrn, UrnSyntaxError } from '@cairn/core';

const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Boundaries inside a word: `sampleKafka`, `HTTPServer`, `v2beta`. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

function wordsOf(text: string): string[] {
  return text.split(NON_WORD).filter((w) => w.length > 0);
}

/** The words of a value, then the parts of its compound words, lower-cased. */
function indexWords(text: string): string[] {
  const words = wordsOf(text);
  const parts = words.flatMap((w) => {
    const split = w.split(CAMEL);
    return split.length > 1 ? split : [];
  });
  return [...words, ...parts].map((w) => w.toLowerCase());
}

/** The ways a query term can match, each a list of words that follow each other: its whole words, and their parts when it has compound words. */
export function queryForms(text: string): string[][] {
  const words = wordsOf(text);
  const whole = words.map((w) => w.toLowerCase());
  const parts = words.flatMap((w) => w.split(CAMEL)).map((w) => w.toLowerCase());
  if (whole.length === 0) return [];
  return parts.length === whole.length ? [whole] : [whole, parts];
}

/** Whether a value holds a form's words, each a prefix of one of its words. */
export function holdsWords(value: string, forms: readonly string[][]): boolean {
  const words = indexWords(value);
  return forms.some((f) => f.every((q) => words.some((w) => w.startsWith(q))));
}

/** The key parts of a URN, nested URNs' parts too; none for text that is not a URN. */
export function urnComponents(value: string): string[] {
  try {
    return parseUrn(value).parts.flatMap((p) => [p, ...(p.startsWith('urn:') ? urnComponents(p) : [])]);
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
