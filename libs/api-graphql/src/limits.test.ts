import { parse, type OperationDefinitionNode } from 'graphql';
import { DEFAULT_LIMITS, measureOperation, pageSize } from './limits';

function measure(query: string, variables: Record<string, unknown> = {}) {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return measureOperation(doc, op, variables, DEFAULT_LIMITS);
}

describe('query measure', () => {
  it('counts depth through fields and fragments', () => {
    expect(measure('{ a { b { c } } }').depth).toBe(3);
    expect(measure('query { a { ...F } } fragment F on T { b { c { d } } }').depth).toBe(4);
  });

  it('multiplies the cost below a field by its page size, from literals or variables', () => {
    expect(measure('{ a { b c } }').cost).toBe(3);
    expect(measure('{ s(input: {count: 10}) { b c } }').cost).toBe(21);
    expect(measure('query($n: Int) { s(input: {count: $n}) { b c } }', { n: 50 }).cost).toBe(101);
    // Page sizes above the maximum count as the maximum, since pages are lowered to it.
    expect(measure('{ s(count: 100000) { b } }').cost).toBe(1 + DEFAULT_LIMITS.maxPageSize);
  });

  it('does not loop on recursive fragments', () => {
    expect(measure('query { a { ...F } } fragment F on T { b { ...F } }').depth).toBe(2);
  });
});

describe('pageSize', () => {
  it('defaults, and stays within [0, max]', () => {
    expect(pageSize(undefined, 10, DEFAULT_LIMITS)).toBe(10);
    expect(pageSize(5000, 10, DEFAULT_LIMITS)).toBe(DEFAULT_LIMITS.maxPageSize);
    expect(pageSize(-3, 10, DEFAULT_LIMITS)).toBe(0);
  });
});
