/**
 * Search as the UI and the SDK use it: free text, `field:value` queries, filtered searches (all
 * with facets, as the UI asks), a REST search, and autocomplete of word prefixes.
 */
import type { CatalogClient, SearchInput } from '../client/catalog-client';
import type { SyntheticCatalog } from '../generator/catalog';
import { Random } from '../generator/random';
import { COLUMN_WORDS, DOMAINS, NOUNS, PLATFORMS, QUALIFIERS } from '../generator/vocabulary';
import { closedLoop, type LoopBounds, type LoopResult } from './closed-loop';

export const SEARCH_KINDS = ['freeText', 'field', 'filter', 'facets', 'rest', 'autocomplete'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

function inputOf(kind: Exclude<SearchKind, 'rest' | 'autocomplete'>, catalog: SyntheticCatalog, random: Random): SearchInput {
  switch (kind) {
    case 'freeText':
      return { query: random.chance(0.5) ? random.pick(NOUNS) : `${random.pick(DOMAINS)} ${random.pick(NOUNS)}` };
    case 'field':
      return { query: random.chance(0.5) ? `fieldPaths:${random.pick(COLUMN_WORDS)}` : `name:${random.pick(NOUNS)}`, types: ['DATASET'] };
    case 'filter':
      return {
        query: random.chance(0.5) ? '*' : random.pick(QUALIFIERS),
        types: ['DATASET'],
        orFilters: [
          { and: [random.chance(0.5) ? { field: 'platform', values: [`urn:li:dataPlatform:${random.pick(PLATFORMS)}`] } : { field: 'tags', values: [catalog.shape.anyUrn('tag', random)] }] },
        ],
      };
    case 'facets':
      return { query: '*', count: 20 };
  }
}

export async function runSearch(client: CatalogClient, catalog: SyntheticCatalog, bounds: LoopBounds): Promise<Record<SearchKind, LoopResult>> {
  const random = new Random(catalog.options.seed + 2);
  const results = {} as Record<SearchKind, LoopResult>;
  for (const kind of SEARCH_KINDS) {
    results[kind] = await closedLoop(bounds, () => {
      if (kind === 'autocomplete') {
        const word = random.pick([...NOUNS, ...DOMAINS]);
        return client.autocomplete(word.slice(0, random.int(2, Math.min(5, word.length))));
      }
      if (kind === 'rest') return client.restSearch(random.pick(NOUNS));
      return client.search(inputOf(kind, catalog, random));
    });
  }
  return results;
}
