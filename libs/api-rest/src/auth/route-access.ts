/**
 * Who may call each REST route, as data beside the route table (`/restli/docs` shows it). Writes
 * are checked twice: here for the entity a delete names, and in the write pipeline for every
 * proposal (by what it changes), so REST ingestion and the GraphQL edits need the same privileges.
 * A route missing here is refused to everyone but the system client.
 */

/** Where the entity a route acts on is named. */
export type UrnSource =
  | { readonly from: 'path' }
  | { readonly from: 'query'; readonly name: string; readonly list?: boolean }
  | { readonly from: 'body'; readonly name: string };

export type RouteAccess =
  /** No credentials needed. */
  | { readonly kind: 'public' }
  /** Any authenticated actor. */
  | { readonly kind: 'authenticated' }
  /** Any actor; each proposal the call makes is checked by the write pipeline. */
  | { readonly kind: 'proposals' }
  /** Any of these platform privileges. */
  | { readonly kind: 'platform'; readonly privileges: readonly string[] }
  /** Any of these privileges on the entity the request names (every one of a list). */
  | { readonly kind: 'entity'; readonly privileges: readonly string[]; readonly urn: UrnSource }
  /** Any of these privileges on at least some entity: searches, counts and lists over many entities. */
  | { readonly kind: 'someEntity'; readonly privileges: readonly string[] };

export interface RouteRule {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly action?: string;
  readonly access: RouteAccess;
}

const VIEW = ['VIEW_ENTITY_PAGE'];
const view = (urn: UrnSource): RouteAccess => ({ kind: 'entity', privileges: VIEW, urn });
const viewSome: RouteAccess = { kind: 'someEntity', privileges: VIEW };
const platform = (...privileges: string[]): RouteAccess => ({ kind: 'platform', privileges });
const proposals: RouteAccess = { kind: 'proposals' };
const body = (name: string): UrnSource => ({ from: 'body', name });
const query = (name: string, list = false): UrnSource => ({ from: 'query', name, list });
const PATH: UrnSource = { from: 'path' };

const action = (path: string, name: string, access: RouteAccess): RouteRule => ({ method: 'POST', path, action: name, access });

export const ROUTE_ACCESS: readonly RouteRule[] = [
  { method: 'GET', path: '/health', access: { kind: 'public' } },
  { method: 'GET', path: '/config', access: { kind: 'public' } },
  { method: 'GET', path: '/restli/docs', access: { kind: 'authenticated' } },
  { method: 'GET', path: '/restli/docs/routes.json', access: { kind: 'authenticated' } },

  action('/aspects', 'ingestProposal', proposals),
  action('/aspects', 'ingestProposalBatch', proposals),
  action('/aspects', 'getTimeseriesAspectValues', view(body('urn'))),
  action('/aspects', 'getCount', viewSome),
  action('/aspects', 'restoreIndices', platform('RESTORE_INDICES')),
  { method: 'GET', path: '/aspects/{urn}', access: view(PATH) },

  action('/entities', 'ingest', proposals),
  action('/entities', 'batchIngest', proposals),
  action('/entities', 'exists', view(body('urn'))),
  action('/entities', 'delete', { kind: 'entity', privileges: ['DELETE_ENTITY'], urn: body('urn') }),
  action('/entities', 'deleteReferences', { kind: 'entity', privileges: ['DELETE_ENTITY'], urn: body('urn') }),
  action('/entities', 'getBrowsePaths', view(body('urn'))),
  ...['search', 'searchAcrossEntities', 'scrollAcrossEntities', 'filter', 'list', 'autocomplete', 'browse', 'getTotalEntityCount', 'batchGetTotalEntityCount', 'listUrns'].map((a) =>
    action('/entities', a, viewSome),
  ),
  { method: 'GET', path: '/entities/{urn}', access: view(PATH) },

  { method: 'GET', path: '/entitiesV2/{urn}', access: view(PATH) },
  { method: 'GET', path: '/entitiesV2', access: view(query('ids', true)) },

  { method: 'GET', path: '/relationships', access: view(query('urn')) },
  { method: 'GET', path: '/openapi/relationships/v1', access: view(query('urn')) },
  { method: 'DELETE', path: '/relationships', access: { kind: 'entity', privileges: ['DELETE_ENTITY'], urn: query('urn') } },

  action('/operations', 'truncateTimeseriesAspect', platform('TRUNCATE_TIMESERIES_INDEX')),
  action('/operations', 'getEsTaskStatus', platform('GET_ES_TASK_STATUS')),
  action('/operations', 'getIndexSizes', platform('GET_TIMESERIES_INDEX_SIZES')),
  action('/operations', 'restoreIndices', platform('RESTORE_INDICES')),
  action('/operations', 'rebuildIndices', platform('RESTORE_INDICES')),

  // Evaluating reads the entity; pushing the results is a proposal the pipeline checks.
  action('/test', 'evaluate', view(body('urn'))),
  action('/usageStats', 'query', view(body('resource'))),
  action('/usageStats', 'queryRange', view(body('resource'))),

  // Routes outside the REST routers, answered before this table applies (so these rules only say, on
  // /restli/docs, who may call them): the session routes precede authentication; /metrics, GraphQL and
  // the schema registry follow it (the registry's writes need MANAGE_INGESTION, see writesNeed).
  { method: 'POST', path: '/logIn', access: { kind: 'public' } },
  { method: 'POST', path: '/logOut', access: { kind: 'public' } },
  { method: 'GET', path: '/metrics', access: { kind: 'authenticated' } },
  { method: 'POST', path: '/api/graphql', access: { kind: 'authenticated' } },
  { method: 'POST', path: '/api/v2/graphql', access: { kind: 'authenticated' } },
  { method: 'GET', path: '/api/graphiql', access: { kind: 'authenticated' } },
  ...['/subjects', '/subjects/{subject}/versions', '/subjects/{subject}/versions/{version}', '/schemas/ids/{id}', '/config'].map(
    (path): RouteRule => ({ method: 'GET', path: `/schema-registry/api${path}`, access: { kind: 'authenticated' } }),
  ),
  ...['/subjects/{subject}/versions', '/subjects/{subject}'].map((path): RouteRule => ({ method: 'POST', path: `/schema-registry/api${path}`, access: platform('MANAGE_INGESTION') })),

  action('/runs', 'rollback', platform('MANAGE_INGESTION')),
  action('/runs', 'list', platform('MANAGE_INGESTION')),
  action('/runs', 'describe', platform('MANAGE_INGESTION')),
];

function templateRegex(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
}

const compiled = ROUTE_ACCESS.map((r) => ({ rule: r, regex: templateRegex(r.path) }));

/** The rule of a request (path without the /api/gms or /gms prefix), and the path parameter if any. */
export function routeAccessOf(method: string, path: string, action: string | undefined): { rule: RouteRule; pathParam?: string } | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  for (const { rule, regex } of compiled) {
    if (rule.method !== method || (rule.action ?? undefined) !== action) continue;
    const m = regex.exec(trimmed);
    if (m) return { rule, ...(m[1] !== undefined ? { pathParam: m[1] } : {}) };
  }
  return undefined;
}

/** A line for the docs page. */
export function describeAccess(access: RouteAccess | undefined): string {
  if (!access) return 'the system client only';
  switch (access.kind) {
    case 'public':
      return 'no credentials';
    case 'authenticated':
      return 'any authenticated actor';
    case 'proposals':
      return 'the privileges each written aspect needs (see schemas/auth/privileges.yaml)';
    case 'platform':
      return `platform privilege ${access.privileges.join(' or ')}`;
    case 'entity':
      return `${access.privileges.join(' or ')} on the entity`;
    case 'someEntity':
      return `${access.privileges.join(' or ')}`;
  }
}
