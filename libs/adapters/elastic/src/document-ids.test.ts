import { createHash } from 'node:crypto';
import { declaredEdgesDocumentId, edgeDocumentId, entityDocumentId, systemMetadataDocumentId, timeseriesDocumentId } from './document-ids';
import { toEdgeDocument } from './edge-documents';

/** The ids existing indexes hold: a change here would leave every stored document behind its replacement. */
const digest = (text: string, encoding: 'hex' | 'base64' = 'hex') => createHash('sha256').update(text).digest(encoding);

describe('document ids', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)';
  const owner = 'urn:li:corpuser:jdoe';

  it('are the URN itself for an entity, and its digest past 512 bytes', () => {
    expect(entityDocumentId(urn)).toBe(urn);
    const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(600)},PROD)`;
    expect(entityDocumentId(long)).toBe(`sha256:${digest(long)}`);
  });

  it('are SHA-256 digests of the parts for edges, declared edges and time-series values', () => {
    expect(edgeDocumentId(urn, 'ownership', 'OwnedBy', owner)).toBe(digest([urn, 'ownership', 'OwnedBy', owner].join('\u0000')));
    expect(declaredEdgesDocumentId(urn, 'ownership')).toBe(`declared:${digest(`${urn}\u0000ownership`)}`);
    expect(timeseriesDocumentId({ urn, timestampMillis: 5 })).toBe(digest(JSON.stringify([urn, 5, null, null, null])));
    expect(toEdgeDocument('ownership', { source: urn, destination: owner, relationshipType: 'OwnedBy' }).edgeKey).toBe(digest([urn, 'OwnedBy', owner].join('\u0000')));
  });

  it('are the reference\'s Base64 SHA-256 of `<urn>--<aspect>` for system metadata', () => {
    expect(systemMetadataDocumentId(urn, 'status')).toBe(digest(`${urn}--status`, 'base64'));
    expect(systemMetadataDocumentId('urn:li:corpuser:x', 'status')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });
});
