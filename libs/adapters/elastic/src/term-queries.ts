/**
 * Search terms and ranking as Elasticsearch queries scored like the embedded engine: a term
 * scores the highest boost among the fields it matches (a dis_max of constant scores, each
 * named after its field so hits tell which fields matched); terms add up; a whole-value match
 * of the typed text multiplies by 10, a whole-value prefix match by 1.6.
 */
import type { FieldBoost, SearchTerm } from '@cairn/ports';
import { subfieldsOf, valueKindOf } from './entity-mappings';
import { MATCH_NONE, type Query } from './filter-query';
import type { SelectionQueries } from './selection-query';

export const EXACT_RANK = 10;
export const PREFIX_RANK = 1.6;

/** How a field can be matched among the selected entity types. */
interface FieldShape {
  readonly words: boolean;
  readonly lower: boolean;
  readonly urn: boolean;
  readonly scalar?: 'boolean' | 'number';
}

export class TermQueries {
  constructor(private readonly selection: SelectionQueries) {}

  private shape(entityTypes: readonly string[], field: string): FieldShape {
    const types = [...this.selection.typesOf(entityTypes, field)];
    const subfields = new Set(types.flatMap((t) => [...subfieldsOf(t)]));
    const scalar = types.map(valueKindOf).find((k): k is 'boolean' | 'number' => k !== 'string');
    return { words: subfields.has('words'), lower: subfields.has('lower'), urn: subfields.has('urn'), ...(scalar ? { scalar } : {}) };
  }

  /** The whole value (lower-cased), or a URN key part, equal to the text. */
  private valueMatch(shape: FieldShape, field: string, text: string): Query[] {
    const lower = text.toLowerCase();
    const out: Query[] = [];
    if (shape.lower) out.push({ term: { [`${field}.lower`]: lower } });
    if (shape.urn) out.push({ term: { [`${field}.urn`]: lower } });
    if (shape.scalar === 'boolean' && (lower === 'true' || lower === 'false')) out.push({ term: { [field]: lower === 'true' } });
    if (shape.scalar === 'number' && String(Number(text)) === text) out.push({ term: { [field]: Number(text) } });
    return out;
  }

  private wordsMatch(shape: FieldShape, field: string, term: Extract<SearchTerm, { kind: 'words' }>): Query[] {
    if (!shape.words) return [];
    const words = `${field}.words`;
    return [term.prefix ? { match_phrase_prefix: { [words]: { query: term.text, max_expansions: 10_000 } } } : { match_phrase: { [words]: term.text } }];
  }

  private best(fields: readonly FieldBoost[], entityTypes: readonly string[], matchesOf: (shape: FieldShape, field: string) => Query[]): Query {
    const perField = fields.flatMap((f) => {
      const matches = matchesOf(this.shape(entityTypes, f.field), f.field);
      if (!matches.length) return [];
      const filter = matches.length === 1 ? matches[0] : { bool: { should: matches, minimum_should_match: 1 } };
      return [{ constant_score: { filter, boost: f.boost, _name: f.field } }];
    });
    return perField.length ? { dis_max: { queries: perField } } : MATCH_NONE;
  }

  term(term: SearchTerm, entityTypes: readonly string[]): Query {
    return this.best(term.fields, entityTypes, (shape, field) => (term.kind === 'value' ? this.valueMatch(shape, field, term.text) : this.wordsMatch(shape, field, term)));
  }

  /** Autocomplete: every word of the text in one field, the last as a prefix. */
  allWords(text: string, fields: readonly FieldBoost[], entityTypes: readonly string[]): Query {
    return this.best(fields, entityTypes, (shape, field) => (shape.words ? [{ match_bool_prefix: { [`${field}.words`]: { query: text, operator: 'and' } } }] : []));
  }

  /** Multiplies the score when a value of one of the fields equals the text or starts with it. */
  ranked(query: Query, text: string | undefined, fields: readonly string[], entityTypes: readonly string[]): Query {
    const typed = text?.trim().toLowerCase() ?? '';
    if (!typed || !fields.length) return query;
    const exact: Query[] = [];
    const prefix: Query[] = [];
    for (const field of fields) {
      const shape = this.shape(entityTypes, field);
      for (const sub of [shape.lower && 'lower', shape.urn && 'urn'].filter((s): s is string => Boolean(s))) {
        exact.push({ term: { [`${field}.${sub}`]: typed } });
        prefix.push({ prefix: { [`${field}.${sub}`]: typed } });
      }
    }
    if (!exact.length) return query;
    return {
      function_score: {
        query,
        functions: [
          { filter: { bool: { should: exact, minimum_should_match: 1 } }, weight: EXACT_RANK },
          { filter: { bool: { should: prefix, minimum_should_match: 1 } }, weight: PREFIX_RANK },
        ],
        score_mode: 'max',
        boost_mode: 'multiply',
      },
    };
  }
}
