/**
 * Request-level authorization of GraphQL operations: reading metadata needs VIEW_ENTITY_PAGE
 * (the auth queries check their own privileges), and an operation refused for lack of privileges
 * answers HTTP 403 (errors in the body, code FORBIDDEN). Mutations are checked where they write:
 * the write pipeline refuses proposals the actor may not make.
 */
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphqlContext } from '../context';

/** Queries whose resolvers check privileges themselves, those anyone authenticated may make, and introspection. */
const SELF_CHECKED = new Set(['me', 'listAccessTokens', 'getAccessToken', 'listPolicies', 'listRoles', 'getGrantedPrivileges', '__typename', '__schema', '__type']);

function topLevelFields(operation: OperationDefinitionNode): string[] {
  return operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
}

const refused = (message: string) => new GraphQLError(message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });

export const authPlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        if (!operation || operation.operation !== 'query' || topLevelFields(operation).every((f) => SELF_CHECKED.has(f))) return;
        if (!(await contextValue.auth.can('VIEW_ENTITY_PAGE'))) {
          throw refused(`Unauthorized to perform this action: ${contextValue.auth.actor.urn} may not read metadata; that needs VIEW_ENTITY_PAGE`);
        }
      },
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        if (response.body.singleResult.errors?.some((e) => e.extensions?.code === 'FORBIDDEN')) response.http.status = 403;
      },
    };
  },
};
