/**
 * The GraphQL endpoint (`POST /api/graphql`, also `/api/v2/graphql`) on Apollo Server, and the
 * GraphiQL explorer at `/api/graphiql`. Other methods on the endpoint get 405.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { buildASTSchema, parse, type GraphQLSchema } from 'graphql';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { addResolversToSchema } from '@graphql-tools/schema';
import type { CatalogContext } from '@cairn/api-rest';
import { readableStore, unrestrictedAuth, type RequestAuth } from '@cairn/auth';
import { SYSTEM_ACTOR } from '@cairn/pipeline';
import { authPlugin } from './auth';
import type { GraphqlContext } from './context';
import { explorerRouter } from './explorer/explorer';
import { DEFAULT_LIMITS, limitsPlugin, type GraphqlLimits } from './limits';
import { createLoaders } from './loaders';
import { buildResolvers } from './resolvers';
import { loadTypeDefs } from './schema';

export const GRAPHQL_PATHS = ['/api/graphql', '/api/v2/graphql'];
export const EXPLORER_PATH = '/api/graphiql';

export interface GraphqlApi {
  readonly router: Router;
  stop(): Promise<void>;
}

/**
 * The reference answers `{data, extensions}` (Apollo leaves `extensions` out when empty), and
 * answers GraphQL errors (syntax, validation, limits) with 200 and the errors in the body, as the
 * GraphQL-over-HTTP spec asks for `application/json` responses; its clients rely on that.
 */
const referenceResponseShape: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        response.body.singleResult.extensions ??= {};
        if (response.http.status === 400 && response.body.singleResult.errors) response.http.status = 200;
      },
    };
  },
};

function onlyPost(req: Request, res: Response, next: NextFunction) {
  if (req.method === 'POST') return next();
  res.status(405).set('Allow', 'POST').json({ errors: [{ message: `The GraphQL endpoint accepts only POST, not ${req.method}` }] });
}

/** A body that is not JSON is answered in the GraphQL error shape, not by the REST error handler. */
function bodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction) {
  const e = err as { type?: string; status?: number; message?: string };
  if (!e?.type || typeof e.status !== 'number') return next(err);
  res.status(e.status).json({ errors: [{ message: e.message ?? 'Bad request body', extensions: { code: 'BAD_REQUEST' } }] });
}

/**
 * The SDL parsed and built once, with its resolvers attached in place. Given type definitions,
 * Apollo would parse, check and build it again and copy it to attach them: a third of the
 * service's start.
 */
function executableSchema(): GraphQLSchema {
  // The SDL is the project's own, checked by schema.test.ts: checking it again took a tenth of a start.
  const schema = buildASTSchema(parse(loadTypeDefs().join('\n')), { assumeValidSDL: true });
  return addResolversToSchema({ schema, resolvers: buildResolvers(schema), updateResolversInPlace: true });
}

export async function createGraphqlApi(catalog: CatalogContext, limits: GraphqlLimits = DEFAULT_LIMITS): Promise<GraphqlApi> {
  const server = new ApolloServer<GraphqlContext>({
    schema: executableSchema(),
    // No federation tracing (the schema is no subgraph) and no cache hints (it declares none): Apollo
    // would otherwise load both plugins at every start, inline tracing with its protobuf types.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      limitsPlugin(limits),
      referenceResponseShape,
      authPlugin,
    ],
    introspection: catalog.auth?.settings.graphqlIntrospection ?? true,
    includeStacktraceInErrorResponses: catalog.info.exposeStackTraces,
    // The service stops Apollo with everything else on SIGTERM; Apollo's own handler would race it and hang the exit.
    stopOnTerminationSignals: false,
  });
  await server.start();

  const router = Router();
  router.all(GRAPHQL_PATHS, onlyPost, express.json({ limit: catalog.info.maxBodyBytes, type: () => true }), bodyErrors,
    expressMiddleware(server, {
      context: async ({ res }) => {
        // Set by the authentication middleware; a GraphQL API mounted without one acts as the system.
        const auth = (res.locals.auth as RequestAuth | undefined) ?? unrestrictedAuth(SYSTEM_ACTOR);
        return { catalog, loaders: createLoaders(readableStore(catalog.store, auth)), actor: auth.actor.urn, auth, limits };
      },
    }),
  );
  router.use(EXPLORER_PATH, explorerRouter(GRAPHQL_PATHS[0]));
  return { router, stop: () => server.stop() };
}
