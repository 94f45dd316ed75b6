/** `relationships` (raw graph edges) and `lineage` (lineage edges oriented up- or downstream). */
import type { Registry } from '@cairn/core';
import type { Edge } from '@cairn/ports';
import type { GraphqlContext } from '../context';
import { pageSize } from '../limits';
import { refOf, type EntityRef } from '../refs';

const DEFAULT_COUNT = 100;
/** How many lineage edges of one direction are read before paging them. */
const MAX_LINEAGE_EDGES = 10_000;

function created(edge: Edge) {
  return edge.createdOn === undefined ? null : { time: edge.createdOn, actor: edge.createdActor ?? null };
}

export async function relationships(ref: EntityRef, args: { input: { types: string[]; direction: 'INCOMING' | 'OUTGOING'; start?: number; count?: number } }, ctx: GraphqlContext) {
  const { types, direction } = args.input;
  const start = Math.max(0, args.input.start ?? 0);
  const count = pageSize(args.input.count, DEFAULT_COUNT, ctx.limits);
  const { total, edges } = await ctx.catalog.graph.edges({ urn: ref.urn, direction, types, start, count });
  return {
    start,
    count: edges.length,
    total,
    relationships: edges.map((e) => ({
      type: e.relationshipType,
      direction,
      entity: refOf(ctx, direction === 'OUTGOING' ? e.destination : e.source),
      created: created(e),
    })),
  };
}

/**
 * Lineage relationship names by orientation. Most point from the downstream entity to its
 * upstream (DownstreamOf, Consumes); those marked isUpstream: false point downstream (Produces).
 */
export function lineageTypes(registry: Registry): { towardUpstream: string[]; towardDownstream: string[] } {
  const up = new Set<string>();
  const down = new Set<string>();
  for (const aspect of registry.model.aspects.values()) {
    for (const r of aspect.relationships) if (r.isLineage) (r.isUpstream === false ? down : up).add(r.name);
  }
  return { towardUpstream: [...up], towardDownstream: [...down] };
}

export interface LineageHop {
  readonly urn: string;
  readonly type: string;
  readonly edge: Edge;
}

/** The entities one lineage hop away in a direction. */
export async function lineageHops(ctx: GraphqlContext, urn: string, direction: 'UPSTREAM' | 'DOWNSTREAM'): Promise<LineageHop[]> {
  const { towardUpstream, towardDownstream } = lineageTypes(ctx.catalog.registry);
  const [outgoingTypes, incomingTypes] = direction === 'UPSTREAM' ? [towardUpstream, towardDownstream] : [towardDownstream, towardUpstream];
  const read = async (types: string[], dir: 'INCOMING' | 'OUTGOING') =>
    types.length === 0 ? [] : (await ctx.catalog.graph.edges({ urn, direction: dir, types, start: 0, count: MAX_LINEAGE_EDGES })).edges;
  const [outgoing, incoming] = await Promise.all([read(outgoingTypes, 'OUTGOING'), read(incomingTypes, 'INCOMING')]);
  const hops = [
    ...outgoing.map((e) => ({ urn: e.destination, type: e.relationshipType, edge: e })),
    ...incoming.map((e) => ({ urn: e.source, type: e.relationshipType, edge: e })),
  ];
  const seen = new Set<string>();
  return hops.filter((h) => h.urn !== urn && !seen.has(h.urn) && seen.add(h.urn));
}

export async function lineage(ref: EntityRef, args: { input: { direction: 'UPSTREAM' | 'DOWNSTREAM'; start?: number; count?: number } }, ctx: GraphqlContext) {
  const start = Math.max(0, args.input.start ?? 0);
  const count = pageSize(args.input.count, DEFAULT_COUNT, ctx.limits);
  const hops = await lineageHops(ctx, ref.urn, args.input.direction);
  const page = hops.slice(start, start + count);
  return {
    start,
    count: page.length,
    total: hops.length,
    filtered: 0,
    relationships: page.map((h) => ({
      type: h.type,
      entity: refOf(ctx, h.urn),
      degree: 1,
      createdOn: h.edge.createdOn ?? null,
      createdActor: refOf(ctx, h.edge.createdActor),
    })),
  };
}

export const graphFields = { relationships, lineage };
