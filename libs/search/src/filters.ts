/**
 * Filters as clients send them, `{or: [{and: [criterion]}]}` or the legacy `{criteria: [...]}`,
 * checked against the index fields and turned into a FilterPlan. Bad input is a 400.
 */
import { badRequest, splitTopLevel } from '@cairn/core';
import { ENTITY_TYPE_FIELD, type FilterCondition, type FilterCriterion, type FilterPlan } from '@cairn/ports';
import type { SearchSchema } from './search-schema';

export const FILTER_CONDITIONS: readonly FilterCondition[] = [
  'EQUAL',
  'IN',
  'CONTAIN',
  'START_WITH',
  'END_WITH',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'EXISTS',
  'IS_NULL',
];

const VALUELESS: ReadonlySet<FilterCondition> = new Set(['EXISTS', 'IS_NULL']);

/** The status field: naming it in a filter lets soft-deleted entities through. */
export const REMOVED_FIELD = 'removed';

function asObject(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(`${what} must be an object`);
  return raw as Record<string, unknown>;
}

function asList(raw: unknown, what: string): unknown[] {
  if (!Array.isArray(raw)) throw badRequest(`${what} must be a list`);
  return raw;
}

function scalarText(v: unknown, what: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`${what} must be a string`);
}

function condition(raw: unknown): FilterCondition {
  if (raw === undefined || raw === null) return 'EQUAL';
  const c = FILTER_CONDITIONS.find((k) => k === raw);
  if (!c) throw badRequest(`Unknown filter condition '${String(raw)}'. Known conditions: ${FILTER_CONDITIONS.join(', ')}`);
  return c;
}

/** `value` may hold a comma list (any of); commas inside a URN's parentheses do not separate. */
function values(c: Record<string, unknown>, cond: FilterCondition, field: string): string[] {
  if (c.values !== undefined && c.values !== null) {
    const list = asList(c.values, `Filter values of '${field}'`).map((v) => scalarText(v, `A filter value of '${field}'`));
    if (list.length) return list;
  }
  if (c.value !== undefined && c.value !== null) {
    const value = scalarText(c.value, `The filter value of '${field}'`);
    if (cond !== 'EQUAL' && cond !== 'IN') return [value];
    return (splitTopLevel(value) ?? [value]).map((v) => v.trim()).filter((v) => v.length > 0);
  }
  if (VALUELESS.has(cond)) return [];
  throw badRequest(`Filter on '${field}' with condition ${cond} needs a value`);
}

function negated(raw: unknown, field: string): boolean {
  if (raw === undefined || raw === null || raw === false || raw === 'false') return false;
  if (raw === true || raw === 'true') return true;
  throw badRequest(`'negated' of the filter on '${field}' must be true or false`);
}

function criterion(schema: SearchSchema, entityTypes: readonly string[], raw: unknown): FilterCriterion {
  const c = asObject(raw, 'A filter criterion');
  if (typeof c.field !== 'string' || c.field.length === 0) throw badRequest("A filter criterion needs a 'field'");
  const fields = schema.resolve(entityTypes, c.field);
  if (fields.length === 0) throw badRequest(`Unknown filter field '${c.field}' for entity type(s) ${entityTypes.join(', ')}`);
  const cond = condition(c.condition);
  let vals = values(c, cond, c.field);
  const types = new Set(entityTypes.flatMap((t) => fields.map((f) => schema.fields(t).get(f)?.type).filter((x) => x !== undefined)));
  if (types.size === 1 && types.has('BOOLEAN')) vals = vals.map((v) => v.toLowerCase());
  if (fields[0] === ENTITY_TYPE_FIELD) vals = vals.map((v) => schema.canonicalEntityType(v));
  return { fields, condition: cond, values: vals, negated: negated(c.negated, c.field) };
}

/** The plan of a filter and whether it names `removed` (so soft-deleted entities stay in). */
export function planFilter(schema: SearchSchema, entityTypes: readonly string[], raw: unknown): { filter: FilterPlan; includeRemoved: boolean } {
  if (raw === undefined || raw === null) return { filter: [], includeRemoved: false };
  const f = asObject(raw, 'The filter');
  let conjunctions: unknown[];
  if (f.or !== undefined && f.or !== null && asList(f.or, "The filter's 'or'").length > 0) {
    conjunctions = (f.or as unknown[]).map((c) => asList(asObject(c, "An 'or' element").and ?? [], "An 'or' element's 'and'"));
  } else if (f.criteria !== undefined && f.criteria !== null) {
    conjunctions = [asList(f.criteria, "The filter's 'criteria'")];
  } else {
    conjunctions = [];
  }
  const planned = (conjunctions as unknown[][]).map((and) => and.map((c) => criterion(schema, entityTypes, c)));
  const includeRemoved = planned.some((and) => and.some((c) => c.fields.includes(REMOVED_FIELD)));
  // An empty conjunction holds for everything, and so does the whole disjunction.
  return { filter: planned.some((and) => and.length === 0) ? [] : planned, includeRemoved };
}
