/**
 * Resolvers pass entities around as references (urn + entity name); each field loads the
 * aspects it needs through the request's loader.
 */
import { UrnSyntaxError } from '@cairn/core';
import type { GraphqlContext } from './context';
import { typeOfEntity } from './entity-types';
import { badInput } from './errors';

export interface EntityRef {
  readonly urn: string;
  readonly entityName: string;
}

/** A reference for any URN of a served entity type; null for malformed URNs or other types. */
export function refOf(ctx: GraphqlContext, urn: unknown): EntityRef | null {
  if (typeof urn !== 'string') return null;
  try {
    const { entity } = ctx.catalog.registry.parseEntityUrn(urn);
    return typeOfEntity(entity.name) ? { urn, entityName: entity.name } : null;
  } catch (err) {
    if (err instanceof UrnSyntaxError) return null;
    throw err;
  }
}

/** References of the URNs of served types, in order; the others are left out. */
export function refsOf(ctx: GraphqlContext, urns: readonly unknown[]): EntityRef[] {
  return urns.map((u) => refOf(ctx, u)).filter((r): r is EntityRef => r !== null);
}

/** Like refOf, for arguments: a malformed URN or an unserved type is the caller's mistake. */
export function requireRef(ctx: GraphqlContext, urn: string, entityName?: string): EntityRef {
  const ref = refOf(ctx, urn);
  if (!ref) throw badInput(`Invalid or unsupported urn: '${urn}'`);
  if (entityName && ref.entityName !== entityName) throw badInput(`Expected a ${entityName} urn, got '${urn}'`);
  return ref;
}

export async function aspectsOf(ctx: GraphqlContext, urn: string): Promise<ReadonlyMap<string, unknown>> {
  return ctx.loaders.aspects.load(urn);
}

export async function aspectOf<T = any>(ctx: GraphqlContext, urn: string, aspect: string): Promise<T | undefined> {
  return (await aspectsOf(ctx, urn)).get(aspect) as T | undefined;
}

/** The entity when it exists (has stored aspects), else null: what entity queries answer. */
export async function existing(ctx: GraphqlContext, ref: EntityRef | null): Promise<EntityRef | null> {
  if (!ref) return null;
  return (await aspectsOf(ctx, ref.urn)).size > 0 ? ref : null;
}

/** The key fields encoded in the URN (e.g. a dataset's platform, name and origin). */
export function keyOf(ctx: GraphqlContext, ref: EntityRef): Record<string, any> {
  const { urn, entity } = ctx.catalog.registry.parseEntityUrn(ref.urn);
  return ctx.catalog.registry.keyFromUrn(urn, entity);
}
