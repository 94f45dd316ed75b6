/**
 * Filter criteria as Elasticsearch queries, comparing as the embedded engine does: EQUAL exact
 * and case-sensitive, substring tests on the raw value, ranges numeric on number and date fields.
 */
import type { FilterCriterion, FilterPlan } from '@cairn/ports';

export type Query = Record<string, unknown>;

export const MATCH_ALL: Query = { match_all: {} };
export const MATCH_NONE: Query = { match_none: {} };

export type ValueKind = 'string' | 'number' | 'boolean';

/** Where a filter field lives in the index and how its values compare; undefined when it is not indexed. */
export type FieldResolver = (field: string) => { readonly path: string; readonly kind: ValueKind } | undefined;

function numericValue(text: string): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}

const RANGE_OPERATOR = { GREATER_THAN: 'gt', GREATER_THAN_OR_EQUAL_TO: 'gte', LESS_THAN: 'lt', LESS_THAN_OR_EQUAL_TO: 'lte' } as const;

/** Values a field of this kind can hold; others cannot match (and would be rejected by the engine). */
function acceptable(kind: ValueKind, values: readonly string[]): string[] {
  if (kind === 'number') return values.filter((v) => numericValue(v) !== null);
  if (kind === 'boolean') return values.filter((v) => v === 'true' || v === 'false');
  return [...values];
}

function valueQuery(field: string, kind: ValueKind, c: FilterCriterion): Query {
  const [v = ''] = c.values;
  switch (c.condition) {
    case 'EQUAL':
    case 'IN': {
      const values = acceptable(kind, c.values);
      return values.length ? { terms: { [field]: values } } : MATCH_NONE;
    }
    case 'CONTAIN':
      return kind === 'string' ? { wildcard: { [field]: { value: `*${escapeWildcard(v)}*` } } } : MATCH_NONE;
    case 'START_WITH':
      return kind === 'string' ? { prefix: { [field]: v } } : MATCH_NONE;
    case 'END_WITH':
      return kind === 'string' ? { wildcard: { [field]: { value: `*${escapeWildcard(v)}` } } } : MATCH_NONE;
    case 'GREATER_THAN':
    case 'GREATER_THAN_OR_EQUAL_TO':
    case 'LESS_THAN':
    case 'LESS_THAN_OR_EQUAL_TO': {
      const bound = kind === 'string' ? v : numericValue(v);
      return bound === null || kind === 'boolean' ? MATCH_NONE : { range: { [field]: { [RANGE_OPERATOR[c.condition]]: bound } } };
    }
    case 'EXISTS':
    case 'IS_NULL':
      return { exists: { field } };
  }
}

/** Whether the criterion's result is inverted: negated, or IS_NULL (the negation of EXISTS). */
export function isInverted(c: FilterCriterion): boolean {
  return c.negated !== (c.condition === 'IS_NULL');
}

export function invert(query: Query, inverted: boolean): Query {
  return inverted ? { bool: { must_not: [query] } } : query;
}

/** The criterion over its fields (any of them); fields that are not indexed never match. */
export function criterionQuery(c: FilterCriterion, resolve: FieldResolver): Query {
  const perField = c.fields.flatMap((f) => {
    const target = resolve(f);
    return target ? [valueQuery(target.path, target.kind, c)] : [];
  });
  const positive = perField.length === 0 ? MATCH_NONE : perField.length === 1 ? perField[0] : { bool: { should: perField, minimum_should_match: 1 } };
  return invert(positive, isInverted(c));
}

/** A disjunction of conjunctions as one query (none when the plan is empty: everything passes). */
export function planQuery(plan: FilterPlan, criterion: (c: FilterCriterion) => Query): Query[] {
  if (plan.length === 0) return [];
  const conjunctions = plan.map((and) => ({ bool: { filter: and.map(criterion) } }));
  return [conjunctions.length === 1 ? conjunctions[0] : { bool: { should: conjunctions, minimum_should_match: 1 } }];
}
