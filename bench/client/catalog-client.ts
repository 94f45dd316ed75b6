/** The calls the scenarios make, as the reference's clients make them (Rest.li REST, the UI's GraphQL). */
import type { MetadataChangeProposal } from '@cairn/events';
import { HttpClient, type HttpReply } from './http-client';

const enc = encodeURIComponent;

export interface SearchInput {
  readonly query: string;
  readonly types?: readonly string[];
  readonly orFilters?: readonly { and: readonly { field: string; values: readonly string[] }[] }[];
  readonly count?: number;
}

const SEARCH = `query search($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } facets { field aggregations { value count } } }
}`;
const FOUND = `query found($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }`;
const AUTOCOMPLETE = `query ac($input: AutoCompleteMultipleInput!) {
  autoCompleteForMultiple(input: $input) { suggestions { type suggestions entities { urn } } }
}`;

export class CatalogClient {
  readonly http: HttpClient;

  constructor(baseUrl: string, connections: number, timeoutMs?: number) {
    this.http = new HttpClient(baseUrl, connections, timeoutMs);
  }

  ingestProposal(proposal: MetadataChangeProposal, async = false): Promise<HttpReply> {
    return this.http.send('POST', '/aspects?action=ingestProposal', JSON.stringify({ proposal, ...(async ? { async: 'true' } : {}) }));
  }

  ingestProposalBatch(proposals: readonly MetadataChangeProposal[], async = false): Promise<HttpReply> {
    return this.http.send('POST', '/aspects?action=ingestProposalBatch', JSON.stringify({ proposals, ...(async ? { async: 'true' } : {}) }));
  }

  getEntity(urn: string): Promise<HttpReply> {
    return this.http.send('GET', `/entitiesV2/${enc(urn)}`);
  }

  getEntities(urns: readonly string[]): Promise<HttpReply> {
    return this.http.send('GET', `/entitiesV2?ids=List(${urns.map(enc).join(',')})`);
  }

  graphql(query: string, variables: Record<string, unknown>): Promise<HttpReply> {
    return this.http.send('POST', '/api/graphql', JSON.stringify({ query, variables }));
  }

  search(input: SearchInput): Promise<HttpReply> {
    return this.graphql(SEARCH, { input: { start: 0, count: 10, ...input } });
  }

  /** The SDK's search: `POST /entities?action=searchAcrossEntities`. */
  restSearch(input: string): Promise<HttpReply> {
    return this.http.send('POST', '/entities?action=searchAcrossEntities', JSON.stringify({ input, start: 0, count: 10 }));
  }

  autocomplete(query: string, types?: readonly string[]): Promise<HttpReply> {
    return this.graphql(AUTOCOMPLETE, { input: { query, limit: 10, ...(types ? { types } : {}) } });
  }

  /** Which of the URNs have a search document yet. */
  async searchable(urns: readonly string[]): Promise<Set<string>> {
    const reply = await this.graphql(FOUND, { input: { query: '*', start: 0, count: urns.length, orFilters: [{ and: [{ field: 'urn', values: urns }] }] } });
    const body = JSON.parse(reply.body) as { data?: { searchAcrossEntities: { searchResults: { entity: { urn: string } }[] } }; errors?: unknown };
    if (!body.data) throw new Error(`search failed: ${reply.body.slice(0, 300)}`);
    return new Set(body.data.searchAcrossEntities.searchResults.map((r) => r.entity.urn));
  }

  /** How many entities search finds in all. */
  async searchableCount(): Promise<number> {
    const reply = await this.graphql(FOUND, { input: { query: '*', start: 0, count: 0 } });
    const body = JSON.parse(reply.body) as { data?: { searchAcrossEntities: { total: number } } };
    if (!body.data) throw new Error(`search failed: ${reply.body.slice(0, 300)}`);
    return body.data.searchAcrossEntities.total;
  }

  close(): void {
    this.http.close();
  }
}
