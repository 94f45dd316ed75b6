/**
 * Words of values and queries, for choosing which value of a matched field to show (matched
 * fields, autocomplete suggestions); the same rules as the index analysis and the embedded engine.
 */

const NON_WORD = /[^\p{L}\p{N}]+/u;
/** Boundaries inside a word: `sampleKafka`, `HTTPServer`, `v2beta`. */
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/** The words of a value; a compound word is followed by its parts. */
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

/** The words of a query: compounds split into their parts. */
export function queryWords(text: string): string[] {
  return text
    .split(NON_WORD)
    .filter((w) => w.length > 0)
    .flatMap((w) => w.split(CAMEL))
    .map((w) => w.toLowerCase());
}

/** The scalar values of a document field (arrays spread, booleans and numbers as text). */
export function scalarValues(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => v !== null && v !== undefined).map((v) => (typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)));
}
