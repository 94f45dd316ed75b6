/** Aspect reads of one request are batched: a list of N entities costs one store read per level, not N×M. */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { defaultRegistry } from '@cairn/core';
import type { CatalogContext } from '@cairn/api-rest';
import type { AspectStore, StoredAspect } from '@cairn/ports';
import { createGraphqlApi, type GraphqlApi } from './index';

const N = 25;
const datasets = Array.from({ length: N }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,table_${i},PROD)`);
const owners = Array.from({ length: N }, (_, i) => `urn:li:corpuser:user_${i}`);

const row = (urn: string, aspect: string, value: unknown): StoredAspect => ({ urn, aspect, version: 0, metadata: JSON.stringify(value), createdOn: 0, createdBy: 'urn:li:corpuser:test' });
const rows: StoredAspect[] = [
  ...datasets.flatMap((urn, i) => [
    row(urn, 'datasetProperties', { name: `table ${i}`, customProperties: {}, tags: [] }),
    row(urn, 'status', { removed: false }),
    row(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
    row(urn, 'ownership', { owners: [{ owner: owners[i], type: 'DATAOWNER' }], lastModified: { time: 0, actor: 'urn:li:corpuser:test' } }),
  ]),
  ...owners.map((urn, i) => row(urn, 'corpUserInfo', { active: true, displayName: `User ${i}`, customProperties: {} })),
];

const calls: string[][] = [];
const store = {
  async getLatest(urns: readonly string[]) {
    calls.push([...urns]);
    return rows.filter((r) => urns.includes(r.urn));
  },
} as unknown as AspectStore;

const context = {
  registry: defaultRegistry(),
  store,
  info: { version: 'test', commit: 'test', serverType: 'test', asyncIngestDefault: false, maxBodyBytes: 1_000_000, exposeStackTraces: false },
} as unknown as CatalogContext;

let api: GraphqlApi;
let server: ReturnType<express.Express['listen']>;
let url: string;
beforeAll(async () => {
  api = await createGraphqlApi(context);
  const app = express();
  app.use(api.router);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/graphql`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await api.stop();
});

it('reads all entities of a list, and all their owners, in one store call each', async () => {
  const query = `query($urns: [String!]!) { entities(urns: $urns) { urn ... on Dataset {
    properties { name } status { removed } tags { tags { tag { urn } } }
    ownership { owners { owner { ... on CorpUser { urn properties { displayName } } } } } } } }`;
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables: { urns: datasets } }) });
  const body = (await res.json()) as any;
  expect(body.errors).toBeUndefined();
  expect(body.data.entities).toHaveLength(N);
  expect(body.data.entities[3].ownership.owners[0].owner.properties.displayName).toBe('User 3');
  expect(calls).toEqual([datasets, owners]);
});
