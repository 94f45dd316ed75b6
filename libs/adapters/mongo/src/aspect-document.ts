/** The stored form of one aspect version: the reference's aspect table as a document. */
import type { SystemMetadata } from '@cairn/events';
import type { AspectWrite, StoredAspect } from '@cairn/ports';
import { text, versionNumber } from './checked-values';

export const ASPECT_COLLECTION = 'metadata_aspect_v2';

/**
 * `metadata` and `systemMetadata` are JSON text, never nested documents: any key (dots, `$`)
 * round-trips exactly and no stored value can be read as a query operator.
 */
export interface AspectDocument {
  /** `rowId(urn, aspect, version)`. */
  readonly _id: string;
  readonly urn: string;
  readonly aspect: string;
  readonly version: number;
  readonly metadata: string;
  readonly systemMetadata: string;
  readonly createdOn: number;
  readonly createdBy: string;
  /** The proposal that wrote this content, so a redelivered proposal is recognised. */
  readonly proposalId: string;
  /** On version 0 only: the highest version of the aspect's history, so the next copy's place is known without a scan. */
  readonly maxVersion?: number;
}

/**
 * The row's key as its `_id`. FerretDB pushes down to its storage only a filter on a lone string
 * `_id` (any other filter scans the collection), so point reads and writes go by this key.
 */
export function rowId(urn: string, aspect: string, version: number): string {
  return JSON.stringify([text(urn, 'urn'), text(aspect, 'aspect'), versionNumber(version)]);
}

export function toStoredAspect(doc: AspectDocument): StoredAspect {
  return {
    urn: doc.urn,
    aspect: doc.aspect,
    version: doc.version,
    metadata: doc.metadata,
    systemMetadata: JSON.parse(doc.systemMetadata) as SystemMetadata,
    createdOn: doc.createdOn,
    createdBy: doc.createdBy,
  };
}

/** The version 0 a write produces, on a history whose highest version is `maxVersion`. */
export function latestFromWrite(write: AspectWrite, maxVersion: number): AspectDocument {
  return {
    _id: rowId(write.urn, write.aspect, 0),
    urn: write.urn,
    aspect: write.aspect,
    version: 0,
    metadata: text(write.metadata, 'metadata'),
    systemMetadata: JSON.stringify(write.systemMetadata),
    createdOn: write.createdOn,
    createdBy: write.createdBy,
    proposalId: text(write.proposalId, 'proposalId'),
    maxVersion,
  };
}

/** Version `version` of the history, holding what `latest` holds. */
export function historyCopy(latest: AspectDocument, version: number): AspectDocument {
  return {
    _id: rowId(latest.urn, latest.aspect, version),
    urn: latest.urn,
    aspect: latest.aspect,
    version,
    metadata: latest.metadata,
    systemMetadata: latest.systemMetadata,
    createdOn: latest.createdOn,
    createdBy: latest.createdBy,
    proposalId: latest.proposalId,
  };
}
