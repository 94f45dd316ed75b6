/** Privilege checks of the auth resolvers, answered as GraphQL errors (FORBIDDEN, BAD_USER_INPUT). */
import type { AuthServices, ResourceRef } from '@cairn/auth';
import { GraphQLError } from 'graphql';
import type { GraphqlContext } from '../context';
import { fromPipelineError } from '../errors';
import { pageSize } from '../limits';

export function servicesOf(ctx: GraphqlContext): AuthServices {
  if (!ctx.catalog.auth) throw new GraphQLError('Authentication services are not configured', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  return ctx.catalog.auth;
}

export async function guard(ctx: GraphqlContext, privileges: string | readonly string[], what: string, resource?: ResourceRef): Promise<void> {
  try {
    await ctx.auth.require(privileges, what, resource);
  } catch (err) {
    throw fromPipelineError(err);
  }
}

/** Runs an auth service call, its errors (403 from the write pipeline, bad input) as GraphQL errors. */
export async function served<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromPipelineError(err);
  }
}

const DEFAULT_COUNT = 20;

export function page<T>(ctx: GraphqlContext, items: readonly T[], input: { start?: number | null; count?: number | null }) {
  const start = Math.max(0, input.start ?? 0);
  const slice = items.slice(start, start + pageSize(input.count, DEFAULT_COUNT, ctx.limits));
  return { start, count: slice.length, total: items.length, slice };
}
