/**
 * One row per REST route: what `/restli/docs` shows. A contract test checks it against the routes
 * the server answers (every action of every resource), so a new route without a row fails.
 */

export interface ParamDoc {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
  readonly default?: string;
}

export interface RouteDoc {
  readonly resource: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The path as called; actions add `?action=<name>`. */
  readonly path: string;
  readonly action?: string;
  readonly summary: string;
  /** Body parameters of actions; query and path parameters otherwise. */
  readonly params: readonly ParamDoc[];
  readonly returns: string;
  readonly example: { readonly request: string; readonly body?: unknown; readonly response?: unknown };
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const DATASET_ENC = encodeURIComponent(DATASET);
const p = (name: string, type: string, required: boolean, description: string, dflt?: string): ParamDoc => ({
  name,
  type,
  required,
  description,
  ...(dflt !== undefined ? { default: dflt } : {}),
});

export const REST_ROUTES: readonly RouteDoc[] = [
  {
    resource: 'aspects',
    method: 'POST',
    path: '/aspects',
    action: 'ingestProposal',
    summary: 'Applies one proposal: UPSERT, DELETE or PATCH (RFC 6902) of one aspect.',
    params: [
      p('proposal', 'MetadataChangeProposal', true, '{entityType, entityUrn, changeType, aspectName, aspect: {value: <aspect JSON as a string>, contentType}}'),
      p('async', 'boolean or "true"/"false"', false, 'answer once durably queued instead of once applied', 'INGEST_ASYNC_DEFAULT'),
    ],
    returns: '{value: <entity urn>}',
    example: {
      request: 'POST /aspects?action=ingestProposal',
      body: { proposal: { entityType: 'dataset', entityUrn: DATASET, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } } },
      response: { value: DATASET },
    },
  },
  {
    resource: 'aspects',
    method: 'POST',
    path: '/aspects',
    action: 'ingestProposalBatch',
    summary: 'Applies several proposals, all or nothing.',
    params: [
      p('proposals', 'MetadataChangeProposal[]', true, 'the proposals, as for ingestProposal'),
      p('async', 'boolean or "true"/"false"', false, 'answer once durably queued instead of once applied', 'INGEST_ASYNC_DEFAULT'),
    ],
    returns: '{value: [<entity urn>, ...]}',
    example: {
      request: 'POST /aspects?action=ingestProposalBatch',
      body: { proposals: [{ entityType: 'dataset', entityUrn: DATASET, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } }] },
      response: { value: [DATASET] },
    },
  },
  {
    resource: 'aspects',
    method: 'POST',
    path: '/aspects',
    action: 'getTimeseriesAspectValues',
    summary: 'Time-series values of one entity and aspect, newest first.',
    params: [
      p('urn', 'string', true, 'the entity'),
      p('entity', 'string', false, "the entity type (must match the urn's)"),
      p('aspect', 'string', true, 'a time-series aspect of the entity'),
      p('startTimeMillis', 'long', false, 'earliest timestamp'),
      p('endTimeMillis', 'long', false, 'latest timestamp'),
      p('limit', 'int', false, 'most values returned (1 to 10000)', '10000'),
      p('latestValue', 'boolean', false, 'only the newest value', 'false'),
    ],
    returns: '{value: {entityName, aspectName, startTimeMillis?, endTimeMillis?, limit, values: [{aspect: {value: <JSON string>, contentType}}]}}',
    example: {
      request: 'POST /aspects?action=getTimeseriesAspectValues',
      body: { urn: DATASET, entity: 'dataset', aspect: 'datasetProfile', startTimeMillis: 0, endTimeMillis: 1700000000000 },
      response: { value: { entityName: 'dataset', aspectName: 'datasetProfile', startTimeMillis: 0, endTimeMillis: 1700000000000, limit: 10000, values: [{ aspect: { value: '{"timestampMillis":1650000000000,"rowCount":100}', contentType: 'application/json' } }] } },
    },
  },
  {
    resource: 'aspects',
    method: 'POST',
    path: '/aspects',
    action: 'getCount',
    summary: 'How many entities have the aspect.',
    params: [p('aspect', 'string', true, 'the aspect name'), p('urnLike', 'string', false, 'URN pattern, % as wildcard')],
    returns: '{value: <count>}',
    example: { request: 'POST /aspects?action=getCount', body: { aspect: 'datasetProperties', urnLike: 'urn:li:dataset:%' }, response: { value: 5 } },
  },
  {
    resource: 'aspects',
    method: 'GET',
    path: '/aspects/{urn}',
    summary: 'One version of one aspect (version 0 is the latest).',
    params: [p('urn', 'path, URL-encoded urn', true, 'the entity'), p('aspect', 'query string', true, 'the aspect name'), p('version', 'query int', false, 'the version', '0')],
    returns: '{version, aspect: {<record name>: <value>}}; 404 when missing',
    example: { request: `GET /aspects/${DATASET_ENC}?aspect=status&version=0`, response: { version: 0, aspect: { 'com.linkedin.common.Status': { removed: false } } } },
  },
  {
    resource: 'entities',
    method: 'POST',
    path: '/entities',
    action: 'ingest',
    summary: 'Legacy snapshot ingest (Rest.li or Avro-JSON form).',
    params: [p('entity', '{value: {<Snapshot record name>: {urn, aspects}}}', true, 'the snapshot'), p('systemMetadata', 'SystemMetadata', false, 'stored with every aspect')],
    returns: 'empty 200',
    example: {
      request: 'POST /entities?action=ingest',
      body: { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: DATASET, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } } },
    },
  },
  {
    resource: 'entities',
    method: 'POST',
    path: '/entities',
    action: 'batchIngest',
    summary: 'Several snapshots, all or nothing.',
    params: [p('entities', 'snapshot[]', true, 'as for ingest'), p('systemMetadata', 'SystemMetadata[]', false, 'one per entity (412 when the lengths differ)')],
    returns: 'empty 200',
    example: {
      request: 'POST /entities?action=batchIngest',
      body: { entities: [{ value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: DATASET, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } }] },
    },
  },
  {
    resource: 'entities',
    method: 'POST',
    path: '/entities',
    action: 'exists',
    summary: 'Whether the entity has stored aspects.',
    params: [p('urn', 'string', true, 'the entity')],
    returns: '{value: <boolean>}',
    example: { request: 'POST /entities?action=exists', body: { urn: DATASET }, response: { value: true } },
  },
  {
    resource: 'entities',
    method: 'POST',
    path: '/entities',
    action: 'delete',
    summary: 'Hard delete of an entity, one of its aspects, or a time-series range.',
    params: [
      p('urn', 'string', true, 'the entity'),
      p('aspectName', 'string', false, 'only this aspect'),
      p('startTimeMillis', 'long', false, 'time-series range start'),
      p('endTimeMillis', 'long', false, 'time-series range end'),
    ],
    returns: '{value: {urn, rows, timeseriesRows}}',
    example: { request: 'POST /entities?action=delete', body: { urn: DATASET }, response: { value: { urn: DATASET, rows: 7, timeseriesRows: 3 } } },
  },
  {
    resource: 'entities',
    method: 'GET',
    path: '/entities/{urn}',
    summary: 'Legacy snapshot read.',
    params: [p('urn', 'path, URL-encoded urn', true, 'the entity')],
    returns: '{value: {<Snapshot record name>: {urn, aspects: [{<record name>: <value>}]}}}',
    example: { request: `GET /entities/${DATASET_ENC}`, response: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: DATASET, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } } },
  },
  {
    resource: 'entitiesV2',
    method: 'GET',
    path: '/entitiesV2/{urn}',
    summary: 'Latest aspects of one entity.',
    params: [p('urn', 'path, URL-encoded urn', true, 'the entity'), p('aspects', 'query List(a,b)', false, 'only these aspects')],
    returns: '{urn, entityName, aspects: {<name>: {name, type, version, value, created, systemMetadata}}}',
    example: {
      request: `GET /entitiesV2/${DATASET_ENC}?aspects=List(status)`,
      response: { urn: DATASET, entityName: 'dataset', aspects: { status: { name: 'status', type: 'VERSIONED', version: 0, value: { removed: false }, created: { time: 1650000000000, actor: 'urn:li:corpuser:datahub' } } } },
    },
  },
  {
    resource: 'entitiesV2',
    method: 'GET',
    path: '/entitiesV2',
    summary: 'Latest aspects of several entities.',
    params: [p('ids', 'query List(u1,u2)', true, 'URL-encoded urns (at most 1000)'), p('aspects', 'query List(a,b)', false, 'only these aspects')],
    returns: '{results: {<urn>: <entity>}, statuses: {}, errors: {<urn>: <error>}}',
    example: { request: `GET /entitiesV2?ids=List(${DATASET_ENC})&aspects=List(status)`, response: { results: { [DATASET]: { urn: DATASET, entityName: 'dataset', aspects: {} } }, statuses: {}, errors: {} } },
  },
  {
    resource: 'relationships',
    method: 'GET',
    path: '/relationships',
    summary: 'Edges of an entity, from the relationship annotations of the model.',
    params: [
      p('urn', 'query urn', true, 'the entity'),
      p('direction', 'INCOMING or OUTGOING', false, 'edge direction', 'OUTGOING'),
      p('types', 'query T or List(T1,T2)', false, 'relationship names'),
      p('start', 'int', false, 'offset', '0'),
      p('count', 'int', false, 'page size (at most 10000)', '100'),
    ],
    returns: '{start, count, total, relationships: [{type, entity}], entities: [urn]}',
    example: {
      request: `GET /relationships?urn=${DATASET_ENC}&direction=OUTGOING&types=List(OwnedBy)`,
      response: { start: 0, count: 1, total: 1, relationships: [{ type: 'OwnedBy', entity: 'urn:li:corpuser:jdoe' }], entities: ['urn:li:corpuser:jdoe'] },
    },
  },
  {
    resource: 'relationships',
    method: 'DELETE',
    path: '/relationships',
    summary: "Removes the entity's edges.",
    params: [p('urn', 'query urn', true, 'the entity')],
    returns: 'empty 200',
    example: { request: `DELETE /relationships?urn=${DATASET_ENC}` },
  },
  {
    resource: 'config',
    method: 'GET',
    path: '/config',
    summary: 'Server configuration, as clients probe it.',
    params: [],
    returns: '{noCode: "true", versions, ...}',
    example: { request: 'GET /config', response: { noCode: 'true', retention: 'true', statefulIngestionCapable: true } },
  },
  {
    resource: 'health',
    method: 'GET',
    path: '/health',
    summary: 'Health of the service and its components.',
    params: [],
    returns: '200 {healthy, components} or 503',
    example: { request: 'GET /health', response: { healthy: true, components: {} } },
  },
  {
    resource: 'restli/docs',
    method: 'GET',
    path: '/restli/docs',
    summary: 'This page.',
    params: [],
    returns: 'HTML',
    example: { request: 'GET /restli/docs' },
  },
  {
    resource: 'restli/docs',
    method: 'GET',
    path: '/restli/docs/routes.json',
    summary: 'The routes of this page as data.',
    params: [],
    returns: '[{resource, method, path, action?, summary, params, returns, example}]',
    example: { request: 'GET /restli/docs/routes.json' },
  },
];
