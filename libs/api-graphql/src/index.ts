export { createGraphqlApi, GRAPHQL_PATHS, EXPLORER_PATH, type GraphqlApi } from './mount';
export { DEFAULT_LIMITS, type GraphqlLimits } from './limits';
