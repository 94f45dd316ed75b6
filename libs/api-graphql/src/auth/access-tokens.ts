/**
 * Personal access tokens: create (for oneself with GENERATE_PERSONAL_ACCESS_TOKENS, for anyone
 * with MANAGE_ACCESS_TOKENS), list (the same rule: one's own, or everyone's), revoke. A token is
 * shown once, when it is created.
 */
import { TOKEN_DURATIONS, type AccessTokenMetadata } from '@cairn/auth';
import type { GraphqlContext } from '../context';
import { badInput, forbidden, notFound } from '../errors';
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

type TokenFilter = { field: string; value?: string | null; values?: string[] | null; negated?: boolean | null };

const valuesOf = (f: TokenFilter) => f.values ?? (f.value != null ? [f.value] : []);

function matches(t: AccessTokenMetadata, filters: readonly TokenFilter[]): boolean {
  return filters.every((f) => {
    if (f.field !== 'actorUrn' && f.field !== 'ownerUrn') throw badInput(`Tokens can be filtered by actorUrn and ownerUrn, not ${f.field}`);
    return valuesOf(f).includes(t[f.field]) !== (f.negated ?? false);
  });
}

/**
 * Whether the filters keep the listing to the tokens the caller owns, as the reference's
 * isListingSelfTokens asks: an ownerUrn filter whose values are exactly the caller. Unlike the
 * reference, a negated one does not count (it would list everyone else's tokens).
 */
const listsOwnTokens = (filters: readonly TokenFilter[], me: string) =>
  filters.some((f) => f.field === 'ownerUrn' && !f.negated && valuesOf(f).length === 1 && valuesOf(f)[0] === me);

const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

export const accessTokenResolvers = {
  Query: {
    getAccessToken: (_: unknown, { input }: { input: TokenRequest }, ctx: GraphqlContext) => createToken(ctx, input),
    /**
     * As the reference's ListAccessTokensResolver: with MANAGE_ACCESS_TOKENS, every token the
     * filters match; without it, only a listing the filters keep to one's own tokens (ownerUrn =
     * oneself), and only with GENERATE_PERSONAL_ACCESS_TOKENS. Anything else is refused (403).
     */
    listAccessTokens: async (_: unknown, { input }: { input: { start?: number | null; count?: number | null; filters?: TokenFilter[] | null } }, ctx: GraphqlContext) => {
      const services = servicesOf(ctx);
      const filters = input.filters ?? [];
      const me = ctx.auth.actor.urn;
      const allowed = (await ctx.auth.can('MANAGE_ACCESS_TOKENS')) || (listsOwnTokens(filters, me) && (await ctx.auth.can('GENERATE_PERSONAL_ACCESS_TOKENS')));
      if (!allowed) throw forbidden(UNAUTHORIZED);
      const all = services.tokens ? await services.tokens.list() : [];
      const visible = all.filter((t) => matches(t, filters)).sort((a, b) => b.createdAt - a.createdAt);
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
