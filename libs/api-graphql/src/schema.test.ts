import { assertValidSchema, buildASTSchema, parse } from 'graphql';
import { validateSDL } from 'graphql/validation/validate';
import { loadTypeDefs } from './schema';

describe('the GraphQL SDL (built at start without checking it again)', () => {
  const document = parse(loadTypeDefs().join('\n'));

  it('is valid SDL: every type, directive and argument it names is known, and nothing is defined twice', () => {
    expect(validateSDL(document).map((e) => e.message)).toEqual([]);
  });

  it('builds a valid schema', () => {
    expect(() => assertValidSchema(buildASTSchema(document))).not.toThrow();
  });

  it('would fail the check on a type it does not define', () => {
    expect(validateSDL(parse('type Query { a: Missing }')).map((e) => e.message)).toEqual(['Unknown type "Missing".']);
  });
});
