/** Field resolvers shared by entity types: each maps one stored aspect to its GraphQL shape. */
import type { GraphqlContext } from '../context';
import { aspectOf, refOf, type EntityRef } from '../refs';
import { typeOfEntity } from '../entity-types';

type FieldResolver = (ref: EntityRef, args: any, ctx: GraphqlContext) => Promise<unknown>;
type Stamp = { time?: number; actor?: string } | undefined;

/** A field read from one aspect: null when the entity does not have it. */
export function fromAspect<T = any>(aspect: string, map: (value: T, ref: EntityRef, ctx: GraphqlContext) => unknown = (v) => v): FieldResolver {
  return async (ref, _args, ctx) => {
    const value = await aspectOf<T>(ctx, ref.urn, aspect);
    return value === undefined ? null : map(value, ref, ctx);
  };
}

export function auditStamp(stamp: Stamp): { time: number; actor: string | null } {
  return { time: stamp?.time ?? 0, actor: stamp?.actor ?? null };
}

export function customProperties(props: Record<string, string> | undefined, associatedUrn: string) {
  return Object.entries(props ?? {}).map(([key, value]) => ({ key, value, associatedUrn }));
}

export function globalTags(value: { tags?: { tag: string }[] } | undefined, associatedUrn: string, ctx: GraphqlContext) {
  if (!value) return null;
  return { tags: (value.tags ?? []).flatMap((t) => (refOf(ctx, t.tag) ? [{ tag: refOf(ctx, t.tag), associatedUrn }] : [])) };
}

export function glossaryTerms(value: { terms?: { urn: string }[] } | undefined, associatedUrn: string, ctx: GraphqlContext) {
  if (!value) return null;
  return { terms: (value.terms ?? []).flatMap((t) => (refOf(ctx, t.urn) ? [{ term: refOf(ctx, t.urn), associatedUrn }] : [])) };
}

function ownership(value: { owners?: { owner: string; type?: string; source?: unknown }[]; lastModified?: Stamp }, ref: EntityRef, ctx: GraphqlContext) {
  return {
    owners: (value.owners ?? []).flatMap((o) => {
      const owner = refOf(ctx, o.owner);
      return owner ? [{ owner, type: o.type ?? null, source: o.source ?? null, associatedUrn: ref.urn }] : [];
    }),
    lastModified: auditStamp(value.lastModified),
  };
}

function institutionalMemory(value: { elements?: { url: string; description: string; createStamp?: Stamp }[] }, ref: EntityRef, ctx: GraphqlContext) {
  return {
    elements: (value.elements ?? []).map((e) => ({
      url: e.url,
      label: e.description,
      description: e.description,
      author: refOf(ctx, e.createStamp?.actor) ?? { urn: e.createStamp?.actor ?? 'urn:li:corpuser:unknown', entityName: 'corpuser' },
      created: auditStamp(e.createStamp),
      associatedUrn: ref.urn,
    })),
  };
}

/** The first domain, as the reference's single-domain association. */
function domain(value: { domains?: string[] }, ref: EntityRef, ctx: GraphqlContext) {
  const d = refOf(ctx, value.domains?.[0]);
  return d ? { domain: d, associatedUrn: ref.urn } : null;
}

function browsePaths(value: { paths?: string[] }) {
  return (value.paths ?? []).map((p) => ({ path: p.split('/').filter((s) => s.length > 0) }));
}

/** Parent containers, nearest first; stops at a cycle or after a sane depth. */
async function parentContainers(ref: EntityRef, _args: unknown, ctx: GraphqlContext) {
  const containers: EntityRef[] = [];
  const seen = new Set([ref.urn]);
  let current = (await aspectOf<{ container: string }>(ctx, ref.urn, 'container'))?.container;
  while (current && !seen.has(current) && containers.length < 20) {
    seen.add(current);
    const parent = refOf(ctx, current);
    if (!parent) break;
    containers.push(parent);
    current = (await aspectOf<{ container: string }>(ctx, current, 'container'))?.container;
  }
  return { count: containers.length, containers };
}

function testResults(value: { passing?: { test: string; type: string }[]; failing?: { test: string; type: string }[] }, _ref: EntityRef, ctx: GraphqlContext) {
  const map = (results: { test: string; type: string }[] | undefined) => (results ?? []).map((r) => ({ test: refOf(ctx, r.test), type: r.type }));
  return { passing: map(value.passing), failing: map(value.failing) };
}

/** Resolvers of the fields most entity types have, keyed by GraphQL field name. */
export const commonFields = {
  type: async (ref: EntityRef) => typeOfEntity(ref.entityName)?.enumValue,
  ownership: fromAspect('ownership', ownership),
  tags: fromAspect('globalTags', (v, ref, ctx) => globalTags(v, ref.urn, ctx)),
  globalTags: fromAspect('globalTags', (v, ref, ctx) => globalTags(v, ref.urn, ctx)),
  glossaryTerms: fromAspect('glossaryTerms', (v, ref, ctx) => glossaryTerms(v, ref.urn, ctx)),
  institutionalMemory: fromAspect('institutionalMemory', institutionalMemory),
  status: fromAspect<{ removed?: boolean }>('status', (v) => ({ removed: v.removed ?? false })),
  deprecation: fromAspect('deprecation'),
  domain: fromAspect('domains', domain),
  container: fromAspect<{ container: string }>('container', (v, _ref, ctx) => refOf(ctx, v.container)),
  parentContainers,
  subTypes: fromAspect('subTypes'),
  browsePaths: fromAspect('browsePaths', browsePaths),
  testResults: fromAspect('testResults', testResults),
};

/** `editableProperties` of entities whose editable aspect holds only a description. */
export function editableDescription(aspect: string): FieldResolver {
  return fromAspect<{ description?: string }>(aspect, (v) => ({ description: v.description ?? null }));
}
