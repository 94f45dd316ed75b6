import { RestliError } from '@cairn/core';
import { parseTestDefinition } from './test-definition';

const parse = (definition: unknown) => parseTestDefinition('urn:li:test:t', typeof definition === 'string' ? definition : JSON.stringify(definition));

describe('metadata test definitions', () => {
  it('reads the types form with conditions, and/or/not and the legacy predicate names', () => {
    const d = parse({
      on: { types: ['dataset', 'chart'], conditions: { property: 'status.removed', operator: 'is_false' } },
      rules: { and: [{ query: 'ownership.owners.owner', operation: 'EQUALS', values: ['urn:li:corpuser:a'] }, { not: { property: 'x.y', operator: 'exists' } }] },
    });
    expect([...d.targets.keys()]).toEqual(['dataset', 'chart']);
    expect(d.targets.get('dataset')).toEqual({ kind: 'predicate', property: ['status', 'removed'], operator: 'is_false', values: [], negated: false });
    expect(d.rules).toEqual({
      kind: 'and',
      negated: false,
      rules: [
        { kind: 'predicate', property: ['ownership', 'owners', 'owner'], operator: 'equals', values: ['urn:li:corpuser:a'], negated: false },
        { kind: 'not', rule: { kind: 'predicate', property: ['x', 'y'], operator: 'exists', values: [], negated: false } },
      ],
    });
  });

  it('reads the older per-type targeting, lists as and, params and negate', () => {
    const d = parse({ on: { dataset: [{ query: 'a.b', condition: 'CONTAINS', params: { values: ['x'] } }] }, rules: [{ property: 'c', operator: 'starts_with', value: 'p', negate: true }] });
    expect(d.targets.get('dataset')).toEqual({ kind: 'and', negated: false, rules: [{ kind: 'predicate', property: ['a', 'b'], operator: 'contains_any', values: ['x'], negated: false }] });
    expect(d.rules).toEqual({ kind: 'and', negated: false, rules: [{ kind: 'predicate', property: ['c'], operator: 'starts_with', values: ['p'], negated: true }] });
  });

  it.each([
    ['{not json', /not valid JSON/],
    [{ rules: [] }, /'on' and a 'rules'/],
    [{ on: {}, rules: [] }, /names no entity types/],
    [{ on: { types: ['dataset'] }, rules: { property: 'a', operator: 'resembles' } }, /unsupported operator 'resembles'/],
    [{ on: { types: ['dataset'] }, rules: { operator: 'exists' } }, /needs a property/],
    [{ on: { types: ['dataset'] }, rules: { property: 'a', operator: 'regex_match', value: '(' } }, /not a valid regular expression/],
  ])('rejects %j', (definition, message) => {
    try {
      parse(definition);
      throw new Error('expected a 400');
    } catch (err) {
      expect(err).toBeInstanceOf(RestliError);
      expect((err as RestliError).message).toMatch(message);
      expect((err as RestliError).message).toContain('urn:li:test:t');
    }
  });
});
