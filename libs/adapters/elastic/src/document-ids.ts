/** Deterministic document ids, so a replayed write overwrites instead of duplicating. */
import { hash } from 'node:crypto';

const MAX_ID_BYTES = 512;

/** One-shot (no Hash object): the indexers hash several ids a change log, about 0.8 µs less each. */
export function sha256(text: string, encoding: 'hex' | 'base64' = 'hex'): string {
  return hash('sha256', text, encoding);
}

/** The URN itself (readable, as the reference); a hash for URNs past Elasticsearch's 512-byte id limit. */
export function entityDocumentId(urn: string): string {
  return Buffer.byteLength(urn) <= MAX_ID_BYTES ? urn : `sha256:${sha256(urn)}`;
}

/** NUL never occurs in URNs or aspect names, so joined parts cannot collide. */
export function edgeDocumentId(source: string, aspect: string, relationshipType: string, destination: string): string {
  return sha256([source, aspect, relationshipType, destination].join('\u0000'));
}

/** The list of edges one aspect of a source declares. */
export function declaredEdgesDocumentId(source: string, aspect: string): string {
  return `declared:${sha256(`${source}\u0000${aspect}`)}`;
}

export function timeseriesDocumentId(identity: { urn: string; timestampMillis: number; eventGranularity?: string; partitionSpec?: string; messageId?: string }): string {
  return sha256(JSON.stringify([identity.urn, identity.timestampMillis, identity.eventGranularity ?? null, identity.partitionSpec ?? null, identity.messageId ?? null]));
}

/** The reference's id: Base64(SHA-256(`<urn>--<aspect>`)). */
export function systemMetadataDocumentId(urn: string, aspect: string): string {
  return sha256(`${urn}--${aspect}`, 'base64');
}
