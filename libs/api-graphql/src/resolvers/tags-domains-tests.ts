/** Tags, domains and metadata tests: types, single reads and lists. */
import type { GraphqlContext } from '../context';
import { aspectOf, existing, keyOf, requireRef, type EntityRef } from '../refs';
import { commonFields, fromAspect } from './aspect-fields';
import { listEntities } from './listing';
import { graphFields } from './relationships';

type ListInput = { input: { start?: number; count?: number; query?: string } };
const byUrn = (entityName: string) => (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, entityName));
const keyField = (field: string) => (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref)[field];

/** A test is shown only once it has its definition; a dangling test urn resolves to null. */
async function existingTest(ctx: GraphqlContext, ref: EntityRef | null) {
  return ref && (await aspectOf(ctx, ref.urn, 'testInfo')) ? ref : null;
}

const testInfo = (field: string) => fromAspect<Record<string, unknown>>('testInfo', (v) => v[field] ?? null);

export const tagDomainTestResolvers = {
  Query: {
    tag: byUrn('tag'),
    domain: byUrn('domain'),
    test: async (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existingTest(ctx, requireRef(ctx, args.urn, 'test')),
    listDomains: async (_: unknown, { input }: ListInput, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'domain', input);
      return { start: page.start, count: page.entities.length, total: page.total, domains: page.entities };
    },
    listTests: async (_: unknown, { input }: ListInput, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'test', input);
      return { start: page.start, count: page.entities.length, total: page.total, tests: page.entities };
    },
  },
  Tag: {
    type: commonFields.type,
    ownership: commonFields.ownership,
    deprecation: commonFields.deprecation,
    status: commonFields.status,
    relationships: graphFields.relationships,
    name: keyField('name'),
    properties: fromAspect<{ name?: string; description?: string; colorHex?: string }>('tagProperties', (v, ref, ctx) => ({
      name: v.name ?? keyOf(ctx, ref).name,
      description: v.description ?? null,
      colorHex: v.colorHex ?? null,
    })),
    description: fromAspect<{ description?: string }>('tagProperties', (v) => v.description ?? null),
  },
  Domain: {
    type: commonFields.type,
    ownership: commonFields.ownership,
    institutionalMemory: commonFields.institutionalMemory,
    relationships: graphFields.relationships,
    id: keyField('id'),
    properties: fromAspect('domainProperties'),
  },
  Test: {
    type: commonFields.type,
    relationships: graphFields.relationships,
    name: testInfo('name'),
    category: testInfo('category'),
    description: testInfo('description'),
    definition: fromAspect<{ definition?: { json?: string } }>('testInfo', (v) => ({ json: v.definition?.json ?? null })),
  },
  TestResult: {
    test: (result: { test: EntityRef | null }, _args: unknown, ctx: GraphqlContext) => existingTest(ctx, result.test),
  },
};
