/** How the auth services write: proposals through the write pipeline, like every other write. */
import type { MetadataChangeProposal } from '@cairn/events';

export interface Proposer {
  propose(proposals: readonly MetadataChangeProposal[], options: { readonly actor: string; readonly async?: boolean }): Promise<unknown>;
}

export function upsert(entityType: string, entityUrn: string, aspectName: string, value: unknown): MetadataChangeProposal {
  return { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } };
}

/** A DELETE of the key aspect: a hard delete of the entity. */
export function removal(entityType: string, entityUrn: string, keyAspect: string): MetadataChangeProposal {
  return { entityType, entityUrn, changeType: 'DELETE', aspectName: keyAspect };
}
