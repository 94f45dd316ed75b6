/**
 * Exact values of a field as word-index tokens, for fields whose many values only filters read (a
 * dataset's column paths and their descriptions: most of the rows the search file would otherwise
 * write at random keys). A value is the token `v` followed by its UTF-8 bytes in hexadecimal:
 * exactly one token whatever its characters, case kept, and a value's prefix is its token's prefix.
 * FTS5 writes a transaction's tokens as one new segment and merges segments later, where a value row
 * would land on a leaf of its own in a large B-tree.
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
