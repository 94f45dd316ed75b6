/**
 * The search box syntax: whitespace-separated terms, all of which must match; `"quoted phrases"`;
 * `field:value` (or `field:"a phrase"`) restricted to one field; `*` alone (or nothing) for
 * everything. Wildcards around a term are dropped (bare terms match word prefixes anyway), and
 * `AND` between terms is implied.
 */

export interface InputTerm {
  /** The field named before a colon; whether it is a field is for the planner to decide. */
  readonly field?: string;
  readonly text: string;
  readonly quoted: boolean;
}

const TERM = /(?:([A-Za-z_][\w.]*):)?(?:"([^"]*)"?|(\S+))/g;

/** A term that holds nothing searchable (only punctuation) is dropped. */
const SEARCHABLE = /[\p{L}\p{N}]/u;

export function parseInput(input: string): InputTerm[] {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed === '*') return [];
  const terms: InputTerm[] = [];
  for (const m of trimmed.matchAll(TERM)) {
    const [, field, quoted, bare] = m;
    if (bare === 'AND' && !field) continue;
    const raw = quoted ?? bare ?? '';
    const text = quoted === undefined ? raw.replace(/^\*+|\*+$/g, '') : raw;
    if (!SEARCHABLE.test(text)) continue;
    terms.push({ ...(field ? { field } : {}), text, quoted: quoted !== undefined });
  }
  return terms;
}

/** The input as one text, for ranking whole-value matches: no quotes, no wildcards, no field prefixes. */
export function plainText(terms: readonly InputTerm[]): string {
  return terms.map((t) => t.text).join(' ');
}
