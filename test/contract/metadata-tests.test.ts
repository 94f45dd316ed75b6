/**
 * Metadata tests: `test` entities whose `testInfo` holds a JSON definition, evaluated against an
 * entity by `POST /test?action=evaluate` (also `/gms/test`), results optionally stored as `testResults`.
 */
import { action, ds, expectRestliError, loadSamples } from '../support/search';
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
  await loadSamples(t, ['smoke_tests_data.json']);
}, 60_000);
afterAll(() => t.close());

const write = async (p: ReturnType<typeof proposal>) => expect((await call(t, 'POST', '/aspects?action=ingestProposal', p)).status).toBe(200);

async function metadataTest(definition: unknown): Promise<string> {
  const urn = `urn:li:test:${unique('test')}`;
  await write(proposal(urn, 'testInfo', { name: urn, category: 'Contract', definition: { type: 'JSON', json: typeof definition === 'string' ? definition : JSON.stringify(definition) } }));
  return urn;
}

const evaluate = (params: Record<string, unknown>, path = 'test') => action(t, path, 'evaluate', params);
const pass = (test: string) => ({ test, type: 'SUCCESS' });
const fail = (test: string) => ({ test, type: 'FAILURE' });

describe('metadata test evaluation', () => {
  const described = ds('hive', unique('described'));
  const bare = ds('hive', unique('bare'));
  let hasDescription: string;
  let ownedByJdoe: string;
  let notDeprecated: string;
  let chartsOnly: string;
  let kafkaOnly: string;

  beforeAll(async () => {
    await write(proposal(described, 'datasetProperties', { description: 'documented', customProperties: {} }));
    await write(proposal(described, 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }], lastModified: { time: 1, actor: 'urn:li:corpuser:jdoe' } }));
    await write(proposal(bare, 'status', { removed: false }));
    // The form the reference's own smoke test creates, with legacy field names.
    hasDescription = await metadataTest(
      '{"on":{"types":["dataset"]},"rules":{"or":[{"query":"editableDatasetProperties.description","operation":"exists"},{"query":"datasetProperties.description","operation":"exists"}]}} ',
    );
    ownedByJdoe = await metadataTest({ on: { types: ['dataset'] }, rules: [{ property: 'ownership.owners.owner', operator: 'equals', values: ['urn:li:corpuser:jdoe'] }] });
    notDeprecated = await metadataTest({ on: { types: ['dataset'] }, rules: { not: { property: 'deprecation.deprecated', operator: 'is_true' } } });
    chartsOnly = await metadataTest({ on: { types: ['chart'] }, rules: { property: 'chartInfo.title', operator: 'exists' } });
    kafkaOnly = await metadataTest({
      on: { types: ['dataset'], conditions: { property: 'datasetKey.platform', operator: 'equals', value: 'urn:li:dataPlatform:kafka' } },
      rules: { property: 'datasetKey.origin', operator: 'equals', values: ['PROD'] },
    });
  });

  it('lists passing and failing tests; tests not targeting the entity are in neither', async () => {
    const tests = [hasDescription, ownedByJdoe, notDeprecated, chartsOnly, kafkaOnly];
    expect(await evaluate({ urn: described, testUrns: tests })).toEqual({ passing: [pass(hasDescription), pass(ownedByJdoe), pass(notDeprecated)], failing: [] });
    expect(await evaluate({ urn: bare, testUrns: tests })).toEqual({ passing: [pass(notDeprecated)], failing: [fail(hasDescription), fail(ownedByJdoe)] });
  });

  it('evaluates every stored test when none are named, also at /gms/test', async () => {
    const result = await evaluate({ urn: bare }, 'gms/test');
    expect(result.failing).toEqual(expect.arrayContaining([fail(hasDescription), fail(ownedByJdoe)]));
    expect(result.passing).toContainEqual(pass(notDeprecated));
    expect([...result.passing, ...result.failing].map((r: { test: string }) => r.test)).not.toContain(chartsOnly);
  });

  it('follows URNs into related entities (the reference sample tests)', async () => {
    const term = `urn:li:glossaryTerm:${unique('term')}`;
    const urn = ds('bigQuery', unique('termed'));
    await write(proposal(term, 'glossaryTermInfo', { definition: 'a term', termSource: 'INTERNAL', parentNode: 'urn:li:glossaryNode:Category' }));
    await write(proposal(urn, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:bigQuery' }));
    const sampleTests = ['urn:li:test:test-1', 'urn:li:test:test-2'];
    expect(await evaluate({ urn, testUrns: sampleTests })).toEqual({ passing: [], failing: sampleTests.map(fail) });
    await write(proposal(urn, 'glossaryTerms', { terms: [{ urn: term }], auditStamp: { time: 1, actor: 'urn:li:corpuser:jdoe' } }));
    expect(await evaluate({ urn, testUrns: sampleTests })).toEqual({ passing: sampleTests.map(pass), failing: [] });
    // The sample dataset is not on BigQuery, so the sample tests do not target it.
    expect(await evaluate({ urn: ds('kafka', 'test-tests-sample'), testUrns: sampleTests })).toEqual({ passing: [], failing: [] });
  });

  it('stores the results as testResults when asked to push', async () => {
    const results = await evaluate({ urn: bare, testUrns: [hasDescription, notDeprecated], shouldPush: true });
    const stored = await call(t, 'GET', `/entitiesV2/${enc(bare)}?aspects=List(testResults)`);
    expect(stored.body.aspects.testResults.value).toEqual(results);
    expect(results).toEqual({ passing: [pass(notDeprecated)], failing: [fail(hasDescription)] });
  });

  it('rejects missing and unknown entities and tests, and broken definitions', async () => {
    expectRestliError(await call(t, 'POST', '/test?action=evaluate', {}), 400, /urn/);
    expectRestliError(await call(t, 'POST', '/test?action=evaluate', { urn: ds('hive', unique('missing')) }), 404, /does not exist/);
    expectRestliError(await call(t, 'POST', '/test?action=evaluate', { urn: bare, testUrns: ['urn:li:test:nope'] }), 404, /urn:li:test:nope/);
    const broken = await metadataTest({ on: { types: ['dataset'] }, rules: { property: 'status.removed', operator: 'resembles' } });
    expectRestliError(await call(t, 'POST', '/test?action=evaluate', { urn: bare, testUrns: [broken] }), 400, /unsupported operator 'resembles'/);
    const notJson = await metadataTest('{not json');
    expectRestliError(await call(t, 'POST', '/test?action=evaluate', { urn: bare, testUrns: [notJson] }), 400, /not valid JSON/);
    expect((await evaluate({ urn: bare })).failing).toContainEqual(fail(hasDescription));
  });
});
