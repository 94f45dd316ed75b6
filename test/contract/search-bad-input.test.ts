/** Bad input to the search-side actions gets a clear 4xx, never a 500. */
import { ds, expectRestliError } from '../support/search';
import { call, enc, startTarget, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const post = (path: string, params: unknown) => call(t, 'POST', path, params);
const search = (params: Record<string, unknown>) => post('/entities?action=search', { entity: 'dataset', input: '*', start: 0, count: 10, ...params });

describe('search rejects', () => {
  it('unknown entity types', async () => {
    expectRestliError(await search({ entity: 'spaceship' }), 400, /Unknown entity type 'spaceship'/);
    expectRestliError(await post('/entities?action=searchAcrossEntities', { entities: ['dataset', 'spaceship'], input: '*' }), 400, /spaceship/);
    expectRestliError(await post('/entities?action=getTotalEntityCount', { entity: 'spaceship' }), 400, /spaceship/);
    expectRestliError(await post('/entities?action=batchGetTotalEntityCount', { entities: [] }), 400, /entities/);
    expectRestliError(await post('/entities?action=listUrns', { entity: 'spaceship', start: 0, count: 1 }), 400, /spaceship/);
    expectRestliError(await search({ entity: undefined }), 400, /entity/);
  });

  it('unknown filter fields and conditions, and malformed filters', async () => {
    expectRestliError(await search({ filter: { or: [{ and: [{ field: 'colour', value: 'red' }] }] } }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await search({ filter: { criteria: [{ field: 'origin', value: 'PROD', condition: 'ROUGHLY' }] } }), 400, /Unknown filter condition 'ROUGHLY'/);
    expectRestliError(await search({ filter: { or: [{ and: [{ field: 'origin', condition: 'EQUAL' }] }] } }), 400, /needs a value/);
    expectRestliError(await search({ filter: { or: 'origin=PROD' } }), 400, /list/);
    expectRestliError(await search({ filter: 'origin=PROD' }), 400, /filter/);
    expectRestliError(await search({ sort: { field: 'colour', order: 'ASCENDING' } }), 400, /Unknown sort field/);
    expectRestliError(await post('/entities?action=filter', { entity: 'dataset', start: 0, count: 10 }), 400, /filter/);
  });

  it('negative, huge and too deep pages', async () => {
    expectRestliError(await search({ start: -1 }), 400, /start/);
    expectRestliError(await search({ count: -5 }), 400, /count/);
    expectRestliError(await search({ count: 100_000 }), 400, /count/);
    expectRestliError(await search({ start: 9_995, count: 10 }), 400, /scrollAcrossEntities/);
    expectRestliError(await search({ count: 'ten' }), 400, /integer/);
    expectRestliError(await post('/entities?action=browse', { entity: 'dataset', path: '/prod', start: 0, limit: -1 }), 400, /limit/);
    expectRestliError(await post('/entities?action=autocomplete', { entity: 'dataset', query: 'x', limit: 1_000_000 }), 400, /limit/);
  });

  it('malformed paths, scroll ids, keep-alives and missing parameters', async () => {
    expectRestliError(await post('/entities?action=browse', { entity: 'dataset', path: '/prod//kafka', start: 0, limit: 10 }), 400, /Malformed browse path/);
    expectRestliError(await post('/entities?action=scrollAcrossEntities', { input: '*', count: 5, scrollId: 'not-a-scroll-id' }), 400, /scrollId/);
    expectRestliError(await post('/entities?action=scrollAcrossEntities', { input: '*', count: 5, keepAlive: 'forever' }), 400, /keepAlive/);
    expectRestliError(await post('/entities?action=autocomplete', { entity: 'dataset', limit: 5 }), 400, /query/);
    expectRestliError(await post('/entities?action=autocomplete', { entity: 'dataset', query: 'x', field: 'colour' }), 400, /Unknown autocomplete field/);
    expectRestliError(await post('/entities?action=getBrowsePaths', { urn: 'not-a-urn' }), 400, /urn/i);
    expectRestliError(await post('/entities?action=deleteReferences', { urn: 'urn:li:dataset:(x' }), 400, /urn/i);
  });
});

describe('filter, autocomplete and browse reject', () => {
  const colour = { or: [{ and: [{ field: 'colour', value: 'red' }] }] };

  it('unknown entity types', async () => {
    expectRestliError(await post('/entities?action=filter', { entity: 'spaceship', filter: { criteria: [{ field: 'origin', value: 'PROD' }] }, start: 0, count: 10 }), 400, /Unknown entity type 'spaceship'/);
    expectRestliError(await post('/entities?action=list', { entity: 'spaceship', start: 0, count: 10 }), 400, /spaceship/);
    expectRestliError(await post('/entities?action=autocomplete', { entity: 'spaceship', query: 'x', limit: 5 }), 400, /Unknown entity type 'spaceship'/);
    expectRestliError(await post('/entities?action=browse', { entity: 'spaceship', path: '/prod', start: 0, limit: 10 }), 400, /Unknown entity type 'spaceship'/);
    expectRestliError(await post('/entities?action=getBrowsePaths', { urn: 'urn:li:spaceship:x' }), 400, /spaceship/);
  });

  it('unknown filter fields', async () => {
    expectRestliError(await post('/entities?action=filter', { entity: 'dataset', filter: colour, start: 0, count: 10 }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await post('/entities?action=filter', { entity: 'dataset', filter: { criteria: [{ field: 'colour', value: 'red' }] }, start: 0, count: 10 }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await post('/entities?action=list', { entity: 'dataset', filter: colour, start: 0, count: 10 }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await post('/entities?action=autocomplete', { entity: 'dataset', query: 'x', filter: colour, limit: 5 }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await post('/entities?action=browse', { entity: 'dataset', path: '/prod', filter: colour, start: 0, limit: 10 }), 400, /Unknown filter field 'colour'/);
    expectRestliError(await post('/entities?action=scrollAcrossEntities', { entities: ['dataset'], input: '*', filter: colour, count: 5 }), 400, /Unknown filter field 'colour'/);
  });
});

describe('relationships reject', () => {
  it('bad directions, counts and URNs', async () => {
    const urn = enc(ds('hive', 'x'));
    expectRestliError(await call(t, 'GET', `/relationships?urn=${urn}&direction=SIDEWAYS&types=OwnedBy`), 400, /direction/);
    expectRestliError(await call(t, 'GET', `/relationships?urn=${urn}&direction=INCOMING&count=-1`), 400, /count/);
    expectRestliError(await call(t, 'GET', `/openapi/relationships/v1/?direction=INCOMING&relationshipTypes=OwnedBy`), 400, /urn/i);
    expectRestliError(await call(t, 'GET', `/openapi/relationships/v1/?urn=${urn}&direction=UP`), 400, /direction/);
    expectRestliError(await call(t, 'GET', `/openapi/relationships/v1/?urn=${urn}&start=x`), 400, /start/);
  });

  it('huge counts with a 400; a huge start is an empty page', async () => {
    const urn = enc(ds('hive', 'x'));
    for (const count of ['100000000', '1000000000000000000000000']) {
      expectRestliError(await call(t, 'GET', `/relationships?urn=${urn}&direction=INCOMING&types=OwnedBy&count=${count}`), 400, /count/);
      expectRestliError(await call(t, 'GET', `/openapi/relationships/v1/?urn=${urn}&direction=INCOMING&relationshipTypes=OwnedBy&count=${count}`), 400, /count/);
    }
    const deep = await call(t, 'GET', `/relationships?urn=${urn}&direction=INCOMING&types=OwnedBy&start=1000000000&count=10`);
    expect(deep.status).toBe(200);
    expect(deep.body).toMatchObject({ start: 1_000_000_000, count: 0, relationships: [] });
    const deepOpenapi = await call(t, 'GET', `/openapi/relationships/v1/?urn=${urn}&direction=INCOMING&relationshipTypes=OwnedBy&start=1000000000&count=10`);
    expect(deepOpenapi.status).toBe(200);
    expect(deepOpenapi.body).toMatchObject({ count: 0, entities: [] });
  });
});
