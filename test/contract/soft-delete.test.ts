/**
 * Soft deletion: `status.removed = true` takes an entity out of search, browse and autocomplete while
 * its page stays readable; `removed = false` brings it back. Only the latest values are searchable.
 */
import { action, ds, entities, eqFilter, indexed } from '../support/search';
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const write = async (urn: string, aspect: string, value: unknown) => {
  const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, aspect, value));
  expect(res.status).toBe(200);
};

const found = async (name: string, extra: Record<string, unknown> = {}) => (await entities(t, 'search', { entity: 'dataset', input: name, start: 0, count: 10, ...extra })).entities as string[];
const browsed = async (path: string) => ((await entities(t, 'browse', { entity: 'dataset', path, start: 0, limit: 10 })).entities as { urn: string }[]).map((e) => e.urn);
const suggested = async (prefix: string) => (await entities(t, 'autocomplete', { entity: 'dataset', query: prefix, limit: 10 })).suggestions as string[];

describe('soft delete', () => {
  it('leaves search, browse and autocomplete, keeps the page, and comes back', async () => {
    const name = unique('Softly');
    const urn = ds('hive', name);
    const path = `/${name.toLowerCase()}/tables`;
    await write(urn, 'datasetProperties', { name, description: 'to be hidden', customProperties: {} });
    await write(urn, 'browsePaths', { paths: [path] });
    await write(urn, 'status', { removed: false });
    await indexed(async () => {
      expect(await found(name)).toEqual([urn]);
      expect(await browsed(path)).toEqual([urn]);
      expect(await suggested(name.slice(0, 12))).toContain(name);
    });
    const before = await entities<number>(t, 'getTotalEntityCount', { entity: 'dataset' });

    await write(urn, 'status', { removed: true });
    await indexed(async () => {
      expect(await found(name)).toEqual([]);
      expect(await browsed(path)).toEqual([]);
      expect(await suggested(name.slice(0, 12))).not.toContain(name);
    });
    const page = await call(t, 'GET', `/entitiesV2/${enc(urn)}`);
    expect(page.status).toBe(200);
    expect(page.body.aspects.status.value).toEqual({ removed: true });
    expect(page.body.aspects.datasetProperties.value.name).toBe(name);
    expect(await found(name, { filter: eqFilter('removed', 'true') })).toEqual([urn]);
    expect(await entities<number>(t, 'getTotalEntityCount', { entity: 'dataset' })).toBeLessThanOrEqual(before - 1);

    await write(urn, 'status', { removed: false });
    await indexed(async () => {
      expect(await found(name)).toEqual([urn]);
      expect(await browsed(path)).toEqual([urn]);
      expect(await suggested(name.slice(0, 12))).toContain(name);
    });
  });

  it('searches only the latest values of an aspect', async () => {
    const name = unique('Versioned');
    const urn = ds('hive', name);
    const first = unique('alphaword');
    const second = unique('betaword');
    await write(urn, 'datasetProperties', { name, description: `${first} text`, customProperties: {} });
    await indexed(async () => expect(await found(first)).toEqual([urn]));
    await write(urn, 'datasetProperties', { name, description: `${second} text`, customProperties: {} });
    await indexed(async () => {
      expect(await found(second)).toEqual([urn]);
      expect(await found(first)).toEqual([]);
    });
    await write(urn, 'globalTags', { tags: [{ tag: `urn:li:tag:${first}` }] });
    await indexed(async () => expect(await found(`tags:${first}`)).toEqual([urn]));
    await write(urn, 'globalTags', { tags: [] });
    await indexed(async () => expect(await found(`tags:${first}`)).toEqual([]));
  });

  it('drops a hard-deleted entity from the index', async () => {
    const name = unique('Gone');
    const urn = ds('hive', name);
    await write(urn, 'datasetProperties', { name, customProperties: {} });
    await indexed(async () => expect(await found(name)).toEqual([urn]));
    await action(t, 'entities', 'delete', { urn });
    await indexed(async () => expect(await found(name)).toEqual([]));
  });
});
