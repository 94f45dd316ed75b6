/** The ingest's HTTP floor: the catalog's own proposals, refused at the edge before anything is queued; and how its loop counts them. */
import { defaultRegistry, RestliError } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import { checkProposal } from '@cairn/pipeline';
import { SyntheticCatalog } from '../../bench/generator/catalog';
import { closedLoop } from '../../bench/scenarios/closed-loop';
import { refusedProposals, UNKNOWN_ENTITY_TYPE } from '../../bench/scenarios/ingest-floor';

const registry = defaultRegistry();
const catalog = new SyntheticCatalog({ entities: 200, seed: 42, namespace: 'f', timeseries: true });

describe('bench ingest floor', () => {
  it('sends the catalog proposals, each under an entity type the model does not know', () => {
    const refused = refusedProposals(catalog, 300).map((json) => JSON.parse(json) as MetadataChangeProposal);
    const originals = [...catalog.proposals()].slice(0, 300);
    expect(refused).toHaveLength(300);
    refused.forEach((p, i) => {
      expect(p.entityType).toBe(UNKNOWN_ENTITY_TYPE);
      expect({ ...p, entityType: originals[i]!.entityType }).toEqual(originals[i]);
    });
  });

  it('is refused with 400 by the check every ingest runs first', () => {
    for (const json of refusedProposals(catalog, 50)) {
      const p = JSON.parse(json) as MetadataChangeProposal;
      let status: number | undefined;
      try {
        checkProposal(registry, p, Date.now());
      } catch (err) {
        status = err instanceof RestliError ? err.status : undefined;
      }
      expect(status).toBe(400);
    }
  });

  it('counts the replies its loop expects as answered and any other as an error', async () => {
    const statuses = [400, 400, 500, 400, 200];
    const result = await closedLoop({ clients: 1, requests: statuses.length, seconds: 10, answered: (r) => r.status === 400 }, async (i) => ({ status: statuses[i]!, body: '' }));
    expect(result.requests).toBe(5);
    expect(result.errors).toBe(2);
    expect(result.firstError).toBe('HTTP 500: ');
    expect(result.generatorCpuUsPerRequest).toBeGreaterThanOrEqual(0);
  });
});
