/** The GraphQL parts of authentication and authorization. */
import { accessTokenResolvers } from './access-tokens';
import { accountResolvers } from './accounts';
import { policyResolvers } from './policies';

export { authPlugin } from './auth-plugin';
export const authResolverMaps = [accessTokenResolvers, policyResolvers, accountResolvers];
