/** Bad input gets a Rest.li error with the right status and stores nothing. */
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget({ MAX_BODY_BYTES: String(64 * 1024) });
});
afterAll(() => t.close());

const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

async function expectNothingStored(urn: string) {
  expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: false });
}

function expectRestliError(res: { status: number; body: any; headers: Headers }, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ exceptionClass: expect.any(String), status });
  expect(res.body.message).toMatch(message);
  expect(res.headers.get('x-restli-error-response')).toBe('true');
}

describe('ingestProposal rejects', () => {
  it('malformed JSON', async () => {
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', '{"proposal": {', { 'Content-Type': 'application/json' });
    expectRestliError(res, 400, /Malformed JSON/);
  });

  it('a missing urn', async () => {
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}', contentType: 'application/json' } } });
    expectRestliError(res, 400, /entityUrn/);
  });

  it.each([
    ['no prefix', 'dataset:(urn:li:dataPlatform:hive,x,PROD)'],
    ['unbalanced parentheses', 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD'],
    ['too few key parts', 'urn:li:dataset:(urn:li:dataPlatform:hive,x)'],
    ['a platform that is not a urn', 'urn:li:dataset:(hive,x,PROD)'],
    ['an unknown environment', 'urn:li:dataset:(urn:li:dataPlatform:hive,x,NOWHERE)'],
  ])('a malformed urn: %s', async (_why, urn) => {
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }, { entityType: 'dataset' }));
    expectRestliError(res, 400, /urn/i);
  });

  it('an unknown entity type', async () => {
    const urn = `urn:li:spaceship:${unique('x')}`;
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    expectRestliError(res, 400, /Unknown entity type 'spaceship'/);
  });

  it('an unknown aspect and an aspect not allowed on the entity', async () => {
    const urn = datasetUrn(unique('aspects'));
    expectRestliError(await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'noSuchAspect', {})), 400, /Unknown aspect 'noSuchAspect'/);
    expectRestliError(await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'corpUserInfo', { active: true })), 400, /not an aspect of entity 'dataset'/);
    await expectNothingStored(urn);
  });

  it('an entity type that does not match the urn', async () => {
    const urn = datasetUrn(unique('mismatch'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }, { entityType: 'chart' }));
    expectRestliError(res, 400, /does not match the urn/);
    await expectNothingStored(urn);
  });

  it('an aspect value that is not JSON', async () => {
    const urn = datasetUrn(unique('notjson'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{removed:', contentType: 'application/json' } } });
    expectRestliError(res, 400, /not valid JSON/);
    await expectNothingStored(urn);
  });

  it.each([
    ['a wrong type', { removed: 'yes' }, 'status', /expected a boolean/],
    ['a missing required field', { owners: [{ type: 'DATAOWNER' }] }, 'ownership', /required field is missing/],
    ['an unknown enum symbol', { owners: [{ owner: 'urn:li:corpuser:a', type: 'BOSS' }] }, 'ownership', /not a symbol of enum/],
    ['an unknown field', { removed: false, colour: 'red' }, 'status', /unrecognized field/],
  ])('an aspect value with %s (422)', async (_why, value, aspect, message) => {
    const urn = datasetUrn(unique('invalid'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, aspect, value));
    expectRestliError(res, 422, message);
    await expectNothingStored(urn);
  });

  it('a body over the size limit (413)', async () => {
    const urn = datasetUrn(unique('huge'));
    // Above the default limit (16 MiB) too, so it also holds against a deployment with default settings.
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProperties', { description: 'x'.repeat(17 * 1024 * 1024) }));
    expectRestliError(res, 413, /larger than the limit/);
    await expectNothingStored(urn);
  });

  it('an unknown action and an unknown resource', async () => {
    expectRestliError(await call(t, 'POST', '/aspects?action=fly', {}), 400, /Unknown action 'fly'/);
    expectRestliError(await call(t, 'GET', '/nowhere'), 404, /No resource/);
  });
});

describe('legacy ingest rejects a whole batch for one bad record', () => {
  it('stores nothing from the batch', async () => {
    const good = datasetUrn(unique('good'));
    const bad = datasetUrn(unique('bad'));
    const snapshot = (urn: string, status: unknown) => ({ value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.linkedin.common.Status': status }] } } });
    const res = await call(t, 'POST', '/entities?action=batchIngest', { entities: [snapshot(good, { removed: false }), snapshot(bad, { removed: 42 })] });
    expectRestliError(res, 422, /expected a boolean/);
    await expectNothingStored(good);
    await expectNothingStored(bad);
  });

  it('answers 412 when systemMetadata does not match the entities', async () => {
    const urn = datasetUrn(unique('mismatched'));
    const res = await call(t, 'POST', '/entities?action=batchIngest', {
      entities: [{ value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } }],
      systemMetadata: [{}, {}],
    });
    expectRestliError(res, 412, /same length/);
    await expectNothingStored(urn);
  });

  it('rejects an unknown snapshot type', async () => {
    const res = await call(t, 'POST', '/entities?action=ingest', { entity: { value: { 'com.linkedin.metadata.snapshot.RocketSnapshot': { urn: 'urn:li:rocket:x', aspects: [] } } } });
    expectRestliError(res, 400, /Unknown snapshot type/);
  });
});

describe('reads reject', () => {
  it('a malformed urn in a path', async () => {
    expectRestliError(await call(t, 'GET', `/entitiesV2/${enc('not-a-urn')}`), 400, /urn/);
    expectRestliError(await call(t, 'GET', `/aspects/${enc('urn:li:dataset:(x')}?aspect=status`), 400, /urn/);
  });

  it('a bad version and a missing aspect parameter', async () => {
    const urn = datasetUrn('x');
    expectRestliError(await call(t, 'GET', `/aspects/${enc(urn)}?aspect=status&version=abc`), 400, /integer/);
    expectRestliError(await call(t, 'GET', `/aspects/${enc(urn)}?aspect=status&version=-1`), 400, /negative/);
    expectRestliError(await call(t, 'GET', `/aspects/${enc(urn)}`), 400, /aspect/);
  });
});
