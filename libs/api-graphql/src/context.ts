/** What every resolver gets: the catalog's ports and use cases, the request's loaders and actor. */
import type { CatalogContext } from '@cairn/api-rest';
import type { RequestAuth } from '@cairn/auth';
import type { Loaders } from './loaders';
import type { GraphqlLimits } from './limits';

export interface GraphqlContext {
  readonly catalog: CatalogContext;
  readonly loaders: Loaders;
  /** URN of the user on whose behalf the request acts. */
  readonly actor: string;
  /** The actor's privilege checks. */
  readonly auth: RequestAuth;
  readonly limits: GraphqlLimits;
}
