/**
 * The floor of the ingest's HTTP path: the catalog's own proposals, sent as the ingest sends them
 * (one per `ingestProposal` request, the same clients), but naming an entity type the model does
 * not know, so the service answers 400 before anything is stored. What it measures is the HTTP
 * server, routing, parsing the body and answering, with the load generator beside it: the most
 * one-proposal requests a second this machine carries, whatever the pipeline behind them costs.
 */
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogClient } from '../client/catalog-client';
import type { SyntheticCatalog } from '../generator/catalog';
import { closedLoop, type LoopBounds, type LoopResult } from './closed-loop';

export const UNKNOWN_ENTITY_TYPE = 'benchFloorUnknownEntity';

/** The catalog's first `count` proposals, each naming an entity type the model does not know, as JSON (serialized before, as the ingest's are). */
export function refusedProposals(catalog: SyntheticCatalog, count: number): string[] {
  const out: string[] = [];
  for (const proposal of catalog.proposals()) {
    if (out.length === count) break;
    out.push(JSON.stringify({ ...proposal, entityType: UNKNOWN_ENTITY_TYPE } satisfies MetadataChangeProposal));
  }
  return out;
}

const DISTINCT_PROPOSALS = 5000;

export function runIngestFloor(client: CatalogClient, catalog: SyntheticCatalog, bounds: Omit<LoopBounds, 'answered'>): Promise<LoopResult> {
  const proposals = refusedProposals(catalog, DISTINCT_PROPOSALS);
  return closedLoop({ ...bounds, answered: (reply) => reply.status === 400 }, (i) => client.ingestProposalJson(proposals[i % proposals.length]!));
}
