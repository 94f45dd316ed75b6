/** The calls the scenarios make, as the reference's clients make them (Rest.li REST, the UI's GraphQL). */
import type { MetadataChangeProposal } from '@cairn/events';
import { HttpClient, type HttpReply } from './http-client';
import type { SnapshotEntity } from './snapshots';

const enc = encodeURIComponent;
const ASYNC_FIELD = ',"async":"true"';

export interface SearchInput {
  readonly query: string;
  readonly types?: readonly string[];
  readonly orFilters?: readonly { and: readonly { field: string; values: readonly string[] }[] }[];
  readonly count?: number;
}

const SEARCH = `query search($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } facets { field aggregations { value count } } }
}`;
const AUTOCOMPLETE = `query ac($input: AutoCompleteMultipleInput!) {
  autoCompleteForMultiple(input: $input) { suggestions { type suggestions entities { urn } } }
}`;

export class CatalogClient {
  readonly http: HttpClient;

  constructor(target: { baseUrl: string; authorization?: string }, connections: number, timeoutMs?: number) {
    this.http = new HttpClient(target.baseUrl, connections, timeoutMs, target.authorization);
  }

  ingestProposal(proposal: MetadataChangeProposal, async = false): Promise<HttpReply> {
    return this.ingestProposalJson(JSON.stringify(proposal), async);
  }

  /** `ingestProposal` of a proposal already serialized (the load generator's spool). */
  ingestProposalJson(proposal: string, async = false): Promise<HttpReply> {
    return this.http.send('POST', '/aspects?action=ingestProposal', `{"proposal":${proposal}${async ? ASYNC_FIELD : ''}}`);
  }

  ingestProposalBatch(proposals: readonly MetadataChangeProposal[], async = false): Promise<HttpReply> {
    return this.ingestProposalBatchJson(proposals.map((p) => JSON.stringify(p)), async);
  }

  ingestProposalBatchJson(proposals: readonly string[], async = false): Promise<HttpReply> {
    return this.http.send('POST', '/aspects?action=ingestProposalBatch', `{"proposals":[${proposals.join(',')}]${async ? ASYNC_FIELD : ''}}`);
  }

  /** Legacy snapshots, all or nothing (`/entities?action=batchIngest`). */
  batchIngest(entities: readonly SnapshotEntity[]): Promise<HttpReply> {
    return this.http.send('POST', '/entities?action=batchIngest', JSON.stringify({ entities }));
  }

  getEntity(urn: string): Promise<HttpReply> {
    return this.http.send('GET', `/entitiesV2/${enc(urn)}`);
  }

  /** The server's static configuration: a request that costs the catalog nothing but answering. */
  config(): Promise<HttpReply> {
    return this.http.send('GET', '/config');
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

  /** Which of the URNs have a search document yet (REST: far cheaper than GraphQL, so probing does not load the server). */
  async searchable(urns: readonly string[]): Promise<Set<string>> {
    const filter = { or: [{ and: [{ field: 'urn', values: urns, condition: 'EQUAL' }] }] };
    const { value } = await this.http.json<{ value: { entities: string[] } }>('POST', '/entities?action=searchAcrossEntities', {
      input: '*',
      start: 0,
      count: urns.length,
      filter,
    });
    return new Set(value.entities);
  }

  /** How many entities search finds in all. */
  async searchableCount(): Promise<number> {
    const { value } = await this.http.json<{ value: { numEntities: number } }>('POST', '/entities?action=searchAcrossEntities', { input: '*', start: 0, count: 0 });
    return value.numEntities;
  }

  close(): void {
    this.http.close();
  }
}
