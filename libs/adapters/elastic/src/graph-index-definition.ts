/**
 * The graph index (`graph_service_v1`): one document per edge and declaring aspect, in the
 * reference's shape (`source`/`destination` with `urn` and `entityType`, `relationshipType`),
 * plus one document per (source, aspect) listing the ids of the edges it declares, read in
 * real time by id so replacing an aspect's edges never depends on a refresh.
 */
import { indexSettings } from './index-settings';
import type { ElasticConnection } from './elastic-connection';
import type { IndexDefinition } from './versioned-index';

const keyword = { type: 'keyword' };
const node = { properties: { urn: keyword, entityType: keyword } };

export function graphIndexDefinition(conn: ElasticConnection): IndexDefinition {
  return {
    name: conn.names.graph(),
    settings: indexSettings(conn.settings),
    mappings: {
      dynamic: 'strict',
      properties: {
        source: node,
        destination: node,
        relationshipType: keyword,
        aspect: keyword,
        /** (source, type, destination): an edge declared by several aspects is read once. */
        edgeKey: keyword,
        createdOn: { type: 'long' },
        createdActor: keyword,
        declaredEdges: { properties: { source: keyword, aspect: keyword, ids: { type: 'keyword', index: false, doc_values: false } } },
      },
    },
  };
}
