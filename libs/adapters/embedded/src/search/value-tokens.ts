/**
 * Exact values and lookup terms of a field as word-index tokens (`search_value_fts`), instead of rows
 * of the value and term B-trees. A value is the token `v` followed by its UTF-8 bytes in hexadecimal,
 * a lookup term (a lower-cased whole value or a URN's component) `w` followed by its: exactly one
 * token whatever its characters, case kept, and a text's prefix is its token's prefix. FTS5 writes a
 * transaction's tokens as one new segment and merges segments later, where a row would land on a
 * leaf of its own in a large B-tree: these rows were most of what the search file wrote at random
 * keys. Values become tokens for fields whose many values only filters read (a dataset's column
 * paths and their descriptions); lookup terms, for the other fields.
 */

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

export function valueToken(value: string): string {
  return `v${hex(value)}`;
}

/** The row of a field's values in `search_value_fts`. */
export function valueTokenText(values: readonly string[]): string {
  return values.map(valueToken).join(' ');
}

/** Rows with any of the values. */
export function anyValueQuery(values: readonly string[]): string {
  return values.map((v) => `"${valueToken(v)}"`).join(' OR ');
}

/** Rows with a value starting with the text (not empty). */
export function prefixQuery(prefix: string): string {
  return `"${valueToken(prefix)}" *`;
}

const termToken = (term: string) => `w${hex(term)}`;

/** The row of a field's lookup terms in `search_value_fts`. */
export function termTokenText(terms: readonly string[]): string {
  return terms.map(termToken).join(' ');
}

/** Rows with the lookup term. */
export function termQuery(term: string): string {
  return `"${termToken(term)}"`;
}

/** Rows with a lookup term starting with the text (not empty). */
export function termPrefixQuery(prefix: string): string {
  return `"${termToken(prefix)}" *`;
}
