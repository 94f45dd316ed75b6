/**
 * Filters as clients send them, `{or: [{and: [criterion]}]}` or the legacy `{criteria: [...]}`,
 * checked against the index fields and turned into a FilterPlan. Bad input is a 400.
 */
import { badRequest, splitTopLevel, type AspectSpec } from '@cairn/core';
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

/** The index fields a filter field name stands for (none: unknown), and how its values read. */
type FieldResolver = (name: string) => { fields: string[]; normalize?: (value: string) => string };

function criterion(resolve: FieldResolver, scope: string, raw: unknown): FilterCriterion {
  const c = asObject(raw, 'A filter criterion');
  if (typeof c.field !== 'string' || c.field.length === 0) throw badRequest("A filter criterion needs a 'field'");
  const { fields, normalize } = resolve(c.field);
  if (fields.length === 0) throw badRequest(`Unknown filter field '${c.field}' for ${scope}`);
  const cond = condition(c.condition);
  const vals = values(c, cond, c.field);
  return { fields, condition: cond, values: normalize ? vals.map(normalize) : vals, negated: negated(c.negated, c.field) };
}

function conjunctionsOf(raw: unknown, resolve: FieldResolver, scope: string): FilterPlan {
  if (raw === undefined || raw === null) return [];
  const f = asObject(raw, 'The filter');
  let conjunctions: unknown[];
  if (f.or !== undefined && f.or !== null && asList(f.or, "The filter's 'or'").length > 0) {
    conjunctions = (f.or as unknown[]).map((c) => asList(asObject(c, "An 'or' element").and ?? [], "An 'or' element's 'and'"));
  } else if (f.criteria !== undefined && f.criteria !== null) {
    conjunctions = [asList(f.criteria, "The filter's 'criteria'")];
  } else {
    conjunctions = [];
  }
  return (conjunctions as unknown[][]).map((and) => and.map((c) => criterion(resolve, scope, c)));
}

/** An empty conjunction holds for everything, and so does the whole disjunction. */
const simplified = (plan: FilterPlan): FilterPlan => (plan.some((and) => and.length === 0) ? [] : plan);

/** The plan of a search filter and whether it names `removed` (so soft-deleted entities stay in). */
export function planFilter(schema: SearchSchema, entityTypes: readonly string[], raw: unknown): { filter: FilterPlan; includeRemoved: boolean } {
  const resolve: FieldResolver = (name) => {
    const fields = schema.resolve(entityTypes, name);
    if (fields[0] === ENTITY_TYPE_FIELD) return { fields, normalize: (v) => schema.canonicalEntityType(v) };
    const types = new Set(entityTypes.flatMap((t) => fields.map((f) => schema.fields(t).get(f)?.type).filter((x) => x !== undefined)));
    return types.size === 1 && types.has('BOOLEAN') ? { fields, normalize: (v) => v.toLowerCase() } : { fields };
  };
  const planned = conjunctionsOf(raw, resolve, `entity type(s) ${entityTypes.join(', ')}`);
  const includeRemoved = planned.some((and) => and.some((c) => c.fields.includes(REMOVED_FIELD)));
  return { filter: simplified(planned), includeRemoved };
}

/** Fields of every time-series document, besides the aspect's own time-series fields. */
export const TIMESERIES_COMMON_FIELDS = ['urn', 'timestampMillis', 'messageId', 'runId'];

/** A filter over time-series documents: the aspect's time-series fields as dotted paths, and the common ones. */
export function planTimeseriesFilter(aspect: AspectSpec, raw: unknown): FilterPlan {
  const known = new Set([...TIMESERIES_COMMON_FIELDS, ...aspect.timeseriesFields.map((f) => f.path.split('/').filter((s) => s && s !== '*').join('.'))]);
  return simplified(conjunctionsOf(raw, (name) => ({ fields: known.has(name) ? [name] : [] }), `time-series aspect ${aspect.name}`));
}
