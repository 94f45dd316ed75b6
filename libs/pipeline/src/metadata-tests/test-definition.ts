/**
 * Metadata test definitions, the reference's JSON form (`testInfo.definition.json`):
 *
 *   {"on": {"types": ["dataset"], "conditions": <rule>}, "rules": <rule>}
 *
 * A rule is a predicate `{property, operator, values}` (also `query` / `operation` / `condition`
 * and `value` / `params`, `negate`), `{and: [...]}`, `{or: [...]}`, `{not: rule}`, or a list (and).
 * The older targeting form `"on": {"dataset": [<predicate>, ...]}` is read too. A property is a
 * path of aspect fields, `aspect.field.field`, which follows URNs into the entities they name.
 */
import { badRequest } from '@cairn/core';

export const OPERATORS = [
  'equals',
  'any_equals',
  'exists',
  'contains_any',
  'contains_str',
  'starts_with',
  'regex_match',
  'greater_than',
  'less_than',
  'is_true',
  'is_false',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Older and search-style names of the same operators. */
const OPERATOR_ALIASES: Record<string, Operator> = { contain: 'contains_any', contains: 'contains_any', equal: 'equals', in: 'any_equals' };

export type Rule =
  | { readonly kind: 'and' | 'or'; readonly rules: readonly Rule[]; readonly negated: boolean }
  | { readonly kind: 'not'; readonly rule: Rule }
  | { readonly kind: 'predicate'; readonly property: readonly string[]; readonly operator: Operator; readonly values: readonly string[]; readonly negated: boolean };

export interface TestDefinition {
  /** Entity types the test applies to, with the conditions an entity must meet to be in scope. */
  readonly targets: ReadonlyMap<string, Rule | undefined>;
  readonly rules: Rule;
}

class DefinitionError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function valuesOf(p: Record<string, unknown>): string[] {
  const source = isObject(p.params) ? p.params : p;
  const raw = source.values ?? source.value;
  if (raw === undefined || raw === null) return [];
  return Array.isArray(raw) ? raw.map(text) : [text(raw)];
}

function operatorOf(raw: unknown): Operator {
  if (typeof raw !== 'string') throw new DefinitionError('a predicate needs an operator (a string)');
  const name = raw.toLowerCase();
  const op = OPERATORS.find((o) => o === name) ?? OPERATOR_ALIASES[name];
  if (!op) throw new DefinitionError(`unsupported operator '${raw}' (supported: ${OPERATORS.join(', ')})`);
  return op;
}

function checkRegex(pattern: string): void {
  try {
    new RegExp(pattern);
  } catch {
    throw new DefinitionError(`'${pattern}' is not a valid regular expression`);
  }
}

function ruleOf(raw: unknown): Rule {
  if (Array.isArray(raw)) return { kind: 'and', rules: raw.map(ruleOf), negated: false };
  if (!isObject(raw)) throw new DefinitionError(`a rule must be an object or a list, got ${JSON.stringify(raw)}`);
  if ('not' in raw) return { kind: 'not', rule: ruleOf(raw.not) };
  const negated = raw.negate === true || raw.negate === 'true';
  for (const kind of ['or', 'and'] as const) {
    if (Array.isArray(raw[kind])) return { kind, rules: (raw[kind] as unknown[]).map(ruleOf), negated };
  }
  const property = raw.property ?? raw.query;
  if (typeof property !== 'string' || !property) throw new DefinitionError(`a predicate needs a property, got ${JSON.stringify(raw)}`);
  const operator = operatorOf(raw.operator ?? raw.operation ?? raw.condition);
  const values = valuesOf(raw);
  if (operator === 'regex_match') for (const v of values) checkRegex(v);
  return { kind: 'predicate', property: property.split('.'), operator, values, negated };
}

function targetsOf(raw: unknown): Map<string, Rule | undefined> {
  if (!isObject(raw)) throw new DefinitionError("'on' must be an object");
  if (Array.isArray(raw.types)) {
    const conditions = raw.conditions ?? raw.match;
    const rule = conditions === undefined ? undefined : ruleOf(conditions);
    return new Map(raw.types.map((t) => [String(t), rule]));
  }
  // The older form: the predicates an entity of each type must meet.
  const targets = new Map(Object.entries(raw).map(([t, conditions]) => [t, ruleOf(conditions)]));
  if (targets.size === 0) throw new DefinitionError("'on' names no entity types");
  return targets;
}

/** Parses a definition's JSON text; a malformed one is a 400 naming the test. */
export function parseTestDefinition(testUrn: string, json: string): TestDefinition {
  try {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new DefinitionError('it is not valid JSON');
    }
    if (!isObject(parsed) || parsed.on === undefined || parsed.rules === undefined) throw new DefinitionError("it needs an 'on' and a 'rules' clause");
    return { targets: targetsOf(parsed.on), rules: ruleOf(parsed.rules) };
  } catch (err) {
    if (err instanceof DefinitionError) throw badRequest(`Invalid definition of test ${testUrn}: ${err.message}`);
    throw err;
  }
}
