/** Metadata tests: create, update, delete. */
import type { GraphqlContext } from '../context';
import { mutate } from './changeset';

interface TestInput {
  name: string;
  category: string;
  description?: string | null;
  definition: { json?: string | null };
}

function testInfoOf(input: TestInput) {
  return {
    name: input.name,
    category: input.category,
    ...(input.description != null ? { description: input.description } : {}),
    definition: { type: 'JSON', ...(input.definition.json != null ? { json: input.definition.json } : {}) },
  };
}

export const testMutations = {
  createTest: (_: unknown, { input }: { input: TestInput & { id?: string | null } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const test = await cs.created('test', input.id, 'Test');
      cs.set(test, 'testInfo', testInfoOf(input));
      return test.urn;
    }),
  updateTest: (_: unknown, args: { urn: string; input: TestInput }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const test = await cs.existing(args.urn, ['test']);
      cs.set(test, 'testInfo', testInfoOf(args.input));
      return test.urn;
    }),
  deleteTest: (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      cs.delete(await cs.existing(urn, ['test']));
      return true;
    }),
};
