/**
 * Personal access tokens: create (for oneself with GENERATE_PERSONAL_ACCESS_TOKENS, for anyone
 * with MANAGE_ACCESS_TOKENS), list, revoke. A token is shown once, when it is created.
 */
import { TOKEN_DURATIONS, type AccessTokenMetadata } from '@cairn/auth';
import type { GraphqlContext } from '../context';
import { badInput, notFound } from '../errors';
import { requireRef } from '../refs';
import { guard, page, servicesOf, served } from './guard';

interface TokenRequest {
  type: 'PERSONAL';
  actorUrn: string;
  duration: string;
  name?: string;
  description?: string | null;
}

const MAX_NAME = 200;

async function createToken(ctx: GraphqlContext, input: TokenRequest) {
  const services = servicesOf(ctx);
  const tokens = services.tokens;
  if (!tokens) throw badInput('Tokens cannot be issued: no signing key is configured (DATAHUB_TOKEN_SERVICE_SIGNING_KEY)');
  const actor = requireRef(ctx, input.actorUrn, 'corpuser');
  if (services.accounts.isReserved(actor.urn.slice('urn:li:corpuser:'.length))) throw badInput('Tokens cannot act as the system client');
  if (!(await services.accounts.identity(actor.urn)).exists) throw badInput(`User ${actor.urn} does not exist`);
  const ttlMs = TOKEN_DURATIONS[input.duration];
  if (ttlMs === undefined) throw badInput(`Unknown duration ${input.duration}`);
  const name = (input.name ?? 'Personal Access Token').trim();
  if (!name || name.length > MAX_NAME) throw badInput(`A token name needs 1 to ${MAX_NAME} characters`);
  const me = ctx.auth.actor.urn;
  if (actor.urn === me) await guard(ctx, ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'], 'create personal access tokens');
  else await guard(ctx, 'MANAGE_ACCESS_TOKENS', `create tokens for ${actor.urn}`);
  const { token, metadata } = await served(() =>
    tokens.createPersonal({ actorUrn: actor.urn, ownerUrn: me, name, ...(input.description ? { description: input.description } : {}), ttlMs }),
  );
  return { accessToken: token, metadata };
}

const mine = (t: AccessTokenMetadata, me: string) => t.ownerUrn === me || t.actorUrn === me;

function matches(t: AccessTokenMetadata, filters: { field: string; value?: string | null; values?: string[] | null; negated?: boolean | null }[]): boolean {
  return filters.every((f) => {
    if (f.field !== 'actorUrn' && f.field !== 'ownerUrn') throw badInput(`Tokens can be filtered by actorUrn and ownerUrn, not ${f.field}`);
    const values = f.values ?? (f.value != null ? [f.value] : []);
    return values.includes(t[f.field]) !== (f.negated ?? false);
  });
}

export const accessTokenResolvers = {
  Query: {
    getAccessToken: (_: unknown, { input }: { input: TokenRequest }, ctx: GraphqlContext) => createToken(ctx, input),
    /** Without MANAGE_ACCESS_TOKENS, one's own tokens only (created by or acting as oneself). */
    listAccessTokens: async (_: unknown, { input }: { input: { start?: number | null; count?: number | null; filters?: Parameters<typeof matches>[1] | null } }, ctx: GraphqlContext) => {
      const services = servicesOf(ctx);
      const all = services.tokens ? await services.tokens.list() : [];
      const me = ctx.auth.actor.urn;
      const everyone = await ctx.auth.can('MANAGE_ACCESS_TOKENS');
      const visible = all.filter((t) => (everyone || mine(t, me)) && matches(t, input.filters ?? [])).sort((a, b) => b.createdAt - a.createdAt);
      const { start, count, total, slice } = page(ctx, visible, input);
      return { start, count, total, tokens: slice };
    },
  },
  Mutation: {
    createAccessToken: (_: unknown, { input }: { input: TokenRequest }, ctx: GraphqlContext) => createToken(ctx, input),
    revokeAccessToken: async (_: unknown, { tokenId }: { tokenId: string }, ctx: GraphqlContext) => {
      const tokens = servicesOf(ctx).tokens;
      const token = tokens && /^[A-Za-z0-9_-]+$/.test(tokenId) ? await tokens.get(tokenId) : undefined;
      if (!tokens || !token) throw notFound(`No token ${tokenId}`);
      if (!mine(token, ctx.auth.actor.urn)) await guard(ctx, 'MANAGE_ACCESS_TOKENS', `revoke tokens of ${token.actorUrn}`);
      await served(() => tokens.revoke(tokenId));
      return true;
    },
  },
};
