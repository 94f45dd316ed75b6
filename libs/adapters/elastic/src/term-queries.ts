/**
 * Search terms, autocomplete and ranking as Elasticsearch queries scored like the embedded
 * engine: a term scores the highest boost among the fields it matches (a dis_max of constant
 * scores); terms add up; a whole-value match of the typed text multiplies by 10, a whole-value
 * prefix match by 1.6.
 */
import type { FieldBoost, SearchTerm } from '@cairn/ports';
import { queryForms } from '@cairn/search';
import { subfieldsOf, valueKindOf } from './entity-mappings';
import { MATCH_NONE, type Query } from './filter-query';
import type { SelectionQueries } from './selection-query';

const EXACT_RANK = 10;
const PREFIX_RANK = 1.6;

/** How a field can be matched among the selected entity types. */
interface FieldShape {
  readonly words: boolean;
  /** Subfields holding whole values and URN key parts, lower-cased. */
  readonly exact: readonly string[];
  readonly scalar?: 'boolean' | 'number';
}

const WORD_SUBFIELDS = ['words', 'parts'] as const;

function anyOf(queries: Query[]): Query {
  return queries.length === 1 ? queries[0] : { bool: { should: queries, minimum_should_match: 1 } };
}

/**
 * Terms that start a phrase's last word, at most, where the field indexes no word prefixes (or the
 * prefix is longer than those it indexes). A lone word's prefix has no such bound.
 */
const PHRASE_PREFIX_EXPANSIONS = 10_000;

/**
 * Each form's words follow each other, the last a prefix when asked, in the value's words or in
 * their parts. A one-word prefix is a prefix query (`match_bool_prefix` of one word), which
 * matches every word that starts with it, from the field's indexed prefixes or its terms.
 */
function formPhrases(field: string, text: string, prefix: boolean): Query[] {
  return queryForms(text).flatMap((form) =>
    WORD_SUBFIELDS.map((sub) => {
      const query = { query: form.join(' '), analyzer: 'query_form' };
      if (!prefix) return { match_phrase: { [`${field}.${sub}`]: query } };
      if (form.length === 1) return { match_bool_prefix: { [`${field}.${sub}`]: query } };
      return { match_phrase_prefix: { [`${field}.${sub}`]: { ...query, max_expansions: PHRASE_PREFIX_EXPANSIONS } } };
    }),
  );
}

/** Each form's words anywhere in the value, the last as a prefix. */
function formWords(field: string, text: string): Query[] {
  const fields = WORD_SUBFIELDS.map((sub) => `${field}.${sub}`);
  return queryForms(text).map((form) => ({
    bool: {
      filter: form.map((word, i) => ({ multi_match: { query: word, fields, analyzer: 'query_form', ...(i === form.length - 1 ? { type: 'bool_prefix' } : {}) } })),
    },
  }));
}

export class TermQueries {
  constructor(private readonly selection: SelectionQueries) {}

  private shape(entityTypes: readonly string[], field: string): FieldShape {
    const mappings = this.selection.mappingsOf(entityTypes, field);
    const subfields = new Set(mappings.flatMap((m) => [...subfieldsOf(m)]));
    const scalar = mappings.map((m) => valueKindOf(m.type)).find((k): k is 'boolean' | 'number' => k !== 'string');
    const exact = (['lower', 'urn'] as const).filter((s) => subfields.has(s)).map((s) => `${field}.${s}`);
    return { words: subfields.has('words'), exact, ...(scalar ? { scalar } : {}) };
  }

  /** The whole value (lower-cased), or a URN key part, equal to the text. */
  private valueMatch(shape: FieldShape, field: string, text: string): Query[] {
    const lower = text.toLowerCase();
    const out: Query[] = shape.exact.map((sub) => ({ term: { [sub]: lower } }));
    if (shape.scalar === 'boolean' && (lower === 'true' || lower === 'false')) out.push({ term: { [field]: lower === 'true' } });
    if (shape.scalar === 'number' && String(Number(text)) === text) out.push({ term: { [field]: Number(text) } });
    return out;
  }

  /**
   * Per field, the best of the scored alternatives it matches. With `label`, each is named
   * `<label>:<field>`, so a hit tells which fields matched (names must be unique in a query).
   */
  private best(fields: readonly FieldBoost[], entityTypes: readonly string[], scored: (shape: FieldShape, f: FieldBoost) => { query: Query; boost: number }[], label?: string): Query {
    const perField = fields.flatMap((f) =>
      scored(this.shape(entityTypes, f.field), f).map(({ query, boost }, i) => ({
        constant_score: { filter: query, boost, ...(label ? { _name: `${label}${i}:${f.field}` } : {}) },
      })),
    );
    return perField.length ? { dis_max: { queries: perField } } : MATCH_NONE;
  }

  term(term: SearchTerm, entityTypes: readonly string[]): Query {
    return this.best(term.fields, entityTypes, (shape, f) => {
      const matches = term.kind === 'value' ? this.valueMatch(shape, f.field, term.text) : shape.words ? formPhrases(f.field, term.text, term.prefix) : [];
      return matches.length ? [{ query: anyOf(matches), boost: f.boost }] : [];
    });
  }

  /**
   * Autocomplete, as the embedded engine ranks it: a document with a whole value (or URN key
   * part) equal to the text scores the field's boost ×10, starting with it ×1.6 (the best such
   * field); a document with neither but every word of the text in a value (the last as a
   * prefix) scores that field's boost. Hits name the matched fields `<label>:<field>`.
   */
  autocomplete(text: string, fields: readonly FieldBoost[], entityTypes: readonly string[]): Query {
    const typed = text.trim().toLowerCase();
    const byValue = this.best(
      fields,
      entityTypes,
      (shape, f) =>
        shape.exact.length
          ? [
              { query: anyOf(shape.exact.map((sub) => ({ term: { [sub]: typed } }))), boost: f.boost * EXACT_RANK },
              { query: anyOf(shape.exact.map((sub) => ({ prefix: { [sub]: typed } }))), boost: f.boost * PREFIX_RANK },
            ]
          : [],
      'value',
    );
    const byWords = this.best(fields, entityTypes, (shape, f) => (shape.words ? formWords(f.field, text).map((query) => ({ query, boost: f.boost })) : []), 'words');
    return { bool: { should: [byValue, { bool: { must: [byWords], must_not: [byValue] } }], minimum_should_match: 1 } };
  }

  /** Multiplies the score when a value of one of the fields equals the text or starts with it. */
  ranked(query: Query, text: string | undefined, fields: readonly string[], entityTypes: readonly string[]): Query {
    const typed = text?.trim().toLowerCase() ?? '';
    const exact = typed ? fields.flatMap((field) => this.shape(entityTypes, field).exact) : [];
    if (!exact.length) return query;
    return {
      function_score: {
        query,
        functions: [
          { filter: anyOf(exact.map((sub) => ({ term: { [sub]: typed } }))), weight: EXACT_RANK },
          { filter: anyOf(exact.map((sub) => ({ prefix: { [sub]: typed } }))), weight: PREFIX_RANK },
        ],
        score_mode: 'max',
        boost_mode: 'multiply',
      },
    };
  }
}
