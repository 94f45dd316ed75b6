/** Glossary terms and nodes: types, single reads and the root lists. */
import type { GraphqlContext } from '../context';
import { aspectOf, existing, keyOf, refOf, requireRef, type EntityRef } from '../refs';
import { commonFields, customProperties, fromAspect } from './aspect-fields';
import { listEntities } from './listing';
import { graphFields } from './relationships';
import { schemaMetadata } from './schema-fields';

/** Parent nodes, nearest first; stops at a cycle or after a sane depth. */
async function parentNodes(ref: EntityRef, _args: unknown, ctx: GraphqlContext) {
  const nodes: EntityRef[] = [];
  const seen = new Set([ref.urn]);
  const parentOf = async (urn: string) =>
    (await aspectOf<{ parentNode?: string }>(ctx, urn, ref.entityName === 'glossaryTerm' && urn === ref.urn ? 'glossaryTermInfo' : 'glossaryNodeInfo'))?.parentNode;
  let current = await parentOf(ref.urn);
  while (current && !seen.has(current) && nodes.length < 20) {
    seen.add(current);
    const node = refOf(ctx, current);
    if (!node) break;
    nodes.push(node);
    current = await parentOf(current);
  }
  return { count: nodes.length, nodes };
}

const ROOT_FILTER = { or: [{ and: [{ field: 'parentNode', condition: 'IS_NULL' }] }] };

export const glossaryResolvers = {
  Query: {
    glossaryTerm: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'glossaryTerm')),
    glossaryNode: (_: unknown, args: { urn: string }, ctx: GraphqlContext) => existing(ctx, requireRef(ctx, args.urn, 'glossaryNode')),
    getRootGlossaryTerms: async (_: unknown, { input }: { input: { start: number; count: number } }, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'glossaryTerm', input, ROOT_FILTER);
      return { start: page.start, count: page.entities.length, total: page.total, terms: page.entities };
    },
    getRootGlossaryNodes: async (_: unknown, { input }: { input: { start: number; count: number } }, ctx: GraphqlContext) => {
      const page = await listEntities(ctx, 'glossaryNode', input, ROOT_FILTER);
      return { start: page.start, count: page.entities.length, total: page.total, nodes: page.entities };
    },
  },
  GlossaryTerm: {
    ...commonFields,
    relationships: graphFields.relationships,
    name: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).name,
    hierarchicalName: (ref: EntityRef, _args: unknown, ctx: GraphqlContext) => keyOf(ctx, ref).name,
    properties: fromAspect<any>('glossaryTermInfo', (v, ref, ctx) => ({
      name: v.name ?? keyOf(ctx, ref).name,
      description: v.definition ?? null,
      definition: v.definition ?? '',
      termSource: v.termSource ?? '',
      sourceRef: v.sourceRef ?? null,
      sourceUrl: v.sourceUrl ?? null,
      customProperties: customProperties(v.customProperties, ref.urn),
      rawSchema: v.rawSchema ?? null,
    })),
    schemaMetadata: fromAspect('schemaMetadata', schemaMetadata),
    parentNodes,
  },
  GlossaryNode: {
    type: commonFields.type,
    ownership: commonFields.ownership,
    institutionalMemory: commonFields.institutionalMemory,
    status: commonFields.status,
    relationships: graphFields.relationships,
    properties: fromAspect<any>('glossaryNodeInfo', (v, ref, ctx) => ({
      name: v.name ?? keyOf(ctx, ref).name,
      description: v.definition ?? null,
      customProperties: customProperties(v.customProperties, ref.urn),
    })),
    parentNodes,
  },
};
