/** Edge documents as stored: the reference's shape, plus the declaring aspect and a key per (source, type, destination). */
import type { Edge } from '@cairn/ports';
import { sha256 } from './document-ids';

export interface EdgeDocument {
  source: { urn: string; entityType: string };
  destination: { urn: string; entityType: string };
  relationshipType: string;
  aspect: string;
  edgeKey: string;
  createdOn?: number;
  createdActor?: string;
}

/** The ids of the edges one aspect of a source declares, read back by id when they are replaced. */
export interface DeclaredEdges {
  declaredEdges: { source: string; aspect: string; ids: string[] };
}

function entityTypeOf(urn: string): string {
  return /^urn:li:([^:]+):/.exec(urn)?.[1] ?? '';
}

export function toEdgeDocument(aspect: string, e: Edge): EdgeDocument {
  return {
    source: { urn: e.source, entityType: entityTypeOf(e.source) },
    destination: { urn: e.destination, entityType: entityTypeOf(e.destination) },
    relationshipType: e.relationshipType,
    aspect,
    edgeKey: sha256([e.source, e.relationshipType, e.destination].join('\u0000')),
    ...(e.createdOn !== undefined ? { createdOn: e.createdOn } : {}),
    ...(e.createdActor !== undefined ? { createdActor: e.createdActor } : {}),
  };
}

export function toEdge(d: EdgeDocument): Edge {
  return {
    source: d.source.urn,
    destination: d.destination.urn,
    relationshipType: d.relationshipType,
    ...(d.createdOn !== undefined ? { createdOn: d.createdOn } : {}),
    ...(d.createdActor !== undefined ? { createdActor: d.createdActor } : {}),
  };
}
