import { defaultRegistry, RestliError, REGISTRY_NAME, REGISTRY_VERSION } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import { checkProposal, checkProposalOnce, isClientError, JSON_CONTENT, JSON_PATCH_CONTENT } from './proposal-check';

const registry = defaultRegistry();
const NOW = 1_700_000_000_000;
const HIVE = 'urn:li:dataPlatform:hive';
const DS = `urn:li:dataset:(${HIVE},db.t,PROD)`;

function mcp(extra: Partial<MetadataChangeProposal> & Record<string, unknown> = {}): MetadataChangeProposal {
  return {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName: 'status',
    aspect: { value: '{"removed":false}', contentType: JSON_CONTENT },
    ...extra,
  } as MetadataChangeProposal;
}

function rejection(proposal: unknown): RestliError {
  try {
    checkProposal(registry, proposal as MetadataChangeProposal, NOW);
  } catch (err) {
    expect(err).toBeInstanceOf(RestliError);
    return err as RestliError;
  }
  throw new Error('expected the proposal to be rejected');
}

describe('checkProposal: accepted proposals', () => {
  it('returns the entity, aspect, URN and parsed value of an upsert', () => {
    const checked = checkProposal(registry, mcp(), NOW);
    expect(checked.entity.name).toBe('dataset');
    expect(checked.aspect.name).toBe('status');
    expect(checked.urn).toBe(DS);
    expect(checked.value).toEqual({ removed: false });
    expect(checked.patch).toBeUndefined();
    expect(checked.mcp.aspect).toEqual({ value: '{"removed":false}', contentType: JSON_CONTENT });
  });

  it('fills systemMetadata defaults', () => {
    expect(checkProposal(registry, mcp(), NOW).mcp.systemMetadata).toEqual({
      lastObserved: NOW,
      runId: 'no-run-id-provided',
      registryName: REGISTRY_NAME,
      registryVersion: REGISTRY_VERSION,
    });
  });

  it('keeps systemMetadata the producer set', () => {
    const sm = { lastObserved: 5, runId: 'run-1', properties: { k: 'v' } };
    expect(checkProposal(registry, mcp({ systemMetadata: sm }), NOW).mcp.systemMetadata).toEqual({ ...sm, registryName: REGISTRY_NAME, registryVersion: REGISTRY_VERSION });
  });

  it('normalizes the value: null optionals dropped', () => {
    const value = { name: 'n', description: null, customProperties: { a: 'b' }, externalUrl: null };
    const checked = checkProposal(registry, mcp({ aspectName: 'datasetProperties', aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT } }), NOW);
    expect(checked.value).toEqual({ name: 'n', customProperties: { a: 'b' } });
    expect(JSON.parse(checked.mcp.aspect!.value)).toEqual({ name: 'n', customProperties: { a: 'b' } });
  });

  it('takes a missing contentType as JSON', () => {
    expect(checkProposal(registry, mcp({ aspect: { value: '{"removed":true}' } as never }), NOW).value).toEqual({ removed: true });
  });

  it('names the entity as the registry does, whatever the case given', () => {
    const checked = checkProposal(registry, mcp({ entityType: 'DataSet' }), NOW);
    expect(checked.mcp.entityType).toBe('dataset');
    const user = checkProposal(registry, mcp({ entityType: 'corpUser', entityUrn: 'urn:li:corpuser:jdoe' }), NOW);
    expect(user.entity.name).toBe('corpuser');
  });

  it.each(['CREATE', 'UPDATE', 'RESTATE'] as const)('accepts %s with a value', (changeType) => {
    expect(checkProposal(registry, mcp({ changeType }), NOW).value).toEqual({ removed: false });
  });

  it('accepts a DELETE without a value', () => {
    const checked = checkProposal(registry, mcp({ changeType: 'DELETE', aspect: undefined }), NOW);
    expect(checked.value).toBeUndefined();
    expect(checked.mcp.changeType).toBe('DELETE');
    expect(checked.mcp.systemMetadata?.lastObserved).toBe(NOW);
  });

  it('accepts a DELETE of the key aspect', () => {
    expect(checkProposal(registry, mcp({ changeType: 'DELETE', aspectName: 'datasetKey', aspect: undefined }), NOW).aspect.kind).toBe('key');
  });

  it('parses the operations of a PATCH', () => {
    const ops = [{ op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:t' } }];
    const checked = checkProposal(registry, mcp({ changeType: 'PATCH', aspectName: 'globalTags', aspect: { value: JSON.stringify(ops), contentType: JSON_PATCH_CONTENT } }), NOW);
    expect(checked.patch).toEqual(ops);
    expect(checked.value).toBeUndefined();
    expect(checked.mcp.aspect).toEqual({ value: JSON.stringify(ops), contentType: JSON_PATCH_CONTENT });
  });

  it('accepts an UPSERT of a time-series aspect', () => {
    const value = { timestampMillis: NOW, rowCount: 5 };
    expect(checkProposal(registry, mcp({ aspectName: 'datasetProfile', aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT } }), NOW).aspect.kind).toBe('timeseries');
  });

  it('accepts a key aspect that matches the URN, in any key order', () => {
    const key = { origin: 'PROD', name: 'db.t', platform: HIVE };
    const checked = checkProposal(registry, mcp({ aspectName: 'datasetKey', aspect: { value: JSON.stringify(key), contentType: JSON_CONTENT } }), NOW);
    expect(checked.value).toEqual({ platform: HIVE, name: 'db.t', origin: 'PROD' });
  });

  it('builds the URN from entityKeyAspect when there is no entityUrn', () => {
    const key = { platform: HIVE, name: 'db.a,b', origin: 'PROD' };
    const checked = checkProposal(registry, mcp({ entityUrn: undefined, entityKeyAspect: { value: JSON.stringify(key), contentType: JSON_CONTENT } }), NOW);
    expect(checked.urn).toBe(`urn:li:dataset:(${HIVE},db.a,b,PROD)`);
    expect(checked.mcp.entityUrn).toBe(checked.urn);
    const user = checkProposal(registry, mcp({ entityType: 'corpuser', entityUrn: undefined, entityKeyAspect: { value: '{"username":"jdoe"}', contentType: JSON_CONTENT } }), NOW);
    expect(user.urn).toBe('urn:li:corpuser:jdoe');
  });

  it('builds a nested URN from entityKeyAspect', () => {
    const key = { flow: 'urn:li:dataFlow:(airflow,dag,prod)', jobId: 'task' };
    const checked = checkProposal(registry, mcp({ entityType: 'dataJob', entityUrn: undefined, aspectName: 'status', entityKeyAspect: { value: JSON.stringify(key), contentType: JSON_CONTENT } }), NOW);
    expect(checked.urn).toBe('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)');
  });
});

describe('checkProposal: rejections', () => {
  it.each<[string, unknown, RegExp]>([
    ['no proposal', undefined, /Missing proposal/],
    ['a non-object proposal', 'x', /Missing proposal/],
    ['no entityType', mcp({ entityType: undefined }), /needs an entityType/],
    ['an empty entityType', mcp({ entityType: '' }), /needs an entityType/],
    ['an unknown entityType', mcp({ entityType: 'nope' }), /Unknown entity type 'nope'/],
    ['neither entityUrn nor entityKeyAspect', mcp({ entityUrn: undefined }), /entityUrn or an entityKeyAspect/],
    ['an entityKeyAspect that is not JSON', mcp({ entityUrn: undefined, entityKeyAspect: { value: '{', contentType: JSON_CONTENT } }), /entityKeyAspect.value is not valid JSON/],
    ['a malformed URN', mcp({ entityUrn: 'urn:li:dataset:(a,,b)' }), /Invalid urn/],
    ['a URN of the wrong key shape', mcp({ entityUrn: 'urn:li:dataset:(hive,db.t,PROD)' }), /Invalid urn/],
    ['a URN of another entity', mcp({ entityUrn: 'urn:li:corpuser:jdoe' }), /does not match the urn/],
    ['a URN of an unknown entity', mcp({ entityUrn: 'urn:li:nope:x' }), /Unknown entity type 'nope'/],
    ['an unknown changeType', mcp({ changeType: 'MERGE' as never }), /Unsupported changeType 'MERGE'/],
    ['no aspectName', mcp({ aspectName: undefined }), /needs an aspectName/],
    ['an unknown aspect', mcp({ aspectName: 'nope' }), /Unknown aspect 'nope'/],
    ['an aspect of another entity', mcp({ aspectName: 'corpUserInfo' }), /not an aspect of entity 'dataset'/],
    ['a DELETE of a time-series aspect', mcp({ changeType: 'DELETE', aspectName: 'datasetProfile', aspect: undefined }), /only accepts UPSERT, got DELETE/],
    ['a PATCH of a time-series aspect', mcp({ changeType: 'PATCH', aspectName: 'operation', aspect: { value: '[]', contentType: JSON_PATCH_CONTENT } }), /only accepts UPSERT/],
    ['a RESTATE of a time-series aspect', mcp({ changeType: 'RESTATE', aspectName: 'datasetProfile' }), /only accepts UPSERT/],
    ['an UPSERT without aspect', mcp({ aspect: undefined }), /needs an aspect value/],
    ['an UPSERT without aspect value', mcp({ aspect: { contentType: JSON_CONTENT } as never }), /needs an aspect value/],
    ['a PATCH with JSON content type', mcp({ changeType: 'PATCH', aspect: { value: '[]', contentType: JSON_CONTENT } }), /needs contentType application\/json-patch\+json/],
    ['a PATCH without content type', mcp({ changeType: 'PATCH', aspect: { value: '[]' } as never }), /needs contentType/],
    ['a PATCH of the key aspect', mcp({ changeType: 'PATCH', aspectName: 'datasetKey', aspect: { value: '[]', contentType: JSON_PATCH_CONTENT } }), /key aspect cannot be patched/],
    ['a PATCH that is not JSON', mcp({ changeType: 'PATCH', aspect: { value: '[{', contentType: JSON_PATCH_CONTENT } }), /not valid JSON/],
    ['a PATCH that is not a list of operations', mcp({ changeType: 'PATCH', aspect: { value: '{"op":"add"}', contentType: JSON_PATCH_CONTENT } }), /must be an array/],
    ['a PATCH with a bad operation', mcp({ changeType: 'PATCH', aspect: { value: '[{"op":"add","path":"x","value":1}]', contentType: JSON_PATCH_CONTENT } }), /path starting with/],
    ['an UPSERT with another content type', mcp({ aspect: { value: '{}', contentType: 'text/plain' } }), /Unsupported aspect contentType 'text\/plain'/],
    ['an UPSERT with a patch content type', mcp({ aspect: { value: '[]', contentType: JSON_PATCH_CONTENT } }), /Unsupported aspect contentType/],
    ['a value that is not JSON', mcp({ aspect: { value: '{removed', contentType: JSON_CONTENT } }), /aspect.value is not valid JSON/],
    ['a value that is not a string', mcp({ aspect: { value: { removed: true } as never, contentType: JSON_CONTENT } }), /must be a string holding JSON/],
    ['a key aspect that does not match the URN', mcp({ aspectName: 'datasetKey', aspect: { value: JSON.stringify({ platform: HIVE, name: 'other', origin: 'PROD' }), contentType: JSON_CONTENT } }), /does not match the urn/],
  ])('answers 400 to %s', (_what, proposal, message) => {
    const err = rejection(proposal);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(message);
    expect(isClientError(err)).toBe(true);
  });

  it.each<[string, MetadataChangeProposal, RegExp]>([
    ['a value of the wrong type', mcp({ aspect: { value: '{"removed":"yes"}', contentType: JSON_CONTENT } }), /\/removed: expected a boolean/],
    ['a value with an unknown field', mcp({ aspect: { value: '{"removed":true,"extra":1}', contentType: JSON_CONTENT } }), /\/extra: unrecognized field/],
    ['a value missing a required field', mcp({ aspectName: 'ownership', aspect: { value: '{}', contentType: JSON_CONTENT } }), /\/owners: required field is missing/],
    ['a value that is not an object', mcp({ aspect: { value: '[]', contentType: JSON_CONTENT } }), /expected a com\.linkedin\.common\.Status record/],
    ['an invalid time-series value', mcp({ aspectName: 'datasetProfile', aspect: { value: '{"rowCount":1}', contentType: JSON_CONTENT } }), /timestampMillis: required field is missing/],
    ['a key aspect of the wrong shape', mcp({ aspectName: 'datasetKey', aspect: { value: '{"name":"db.t"}', contentType: JSON_CONTENT } }), /platform: required field is missing/],
    ['an entityKeyAspect of the wrong shape', mcp({ entityUrn: undefined, entityKeyAspect: { value: '{"name":"db.t"}', contentType: JSON_CONTENT } }), /required field is missing/],
  ])('answers 422 to %s', (_what, proposal, message) => {
    const err = rejection(proposal);
    expect(err.status).toBe(422);
    expect(err.message).toMatch(message);
  });

  it('names the aspect and URN of an invalid value', () => {
    expect(rejection(mcp({ aspect: { value: '{"removed":1}', contentType: JSON_CONTENT } })).message).toContain(`Failed to validate aspect status of ${DS}`);
  });
});

describe('isClientError', () => {
  it('is true for 4xx RestliErrors only', () => {
    expect(isClientError(new RestliError(422, 'x'))).toBe(true);
    expect(isClientError(new RestliError(500, 'x'))).toBe(false);
    expect(isClientError(new RestliError(504, 'x'))).toBe(false);
    expect(isClientError(new Error('x'))).toBe(false);
  });
});

describe('checkProposalOnce', () => {
  it('answers the check made in this process of the very proposal object it produced', () => {
    const checked = checkProposal(registry, mcp(), NOW);
    expect(checkProposalOnce(registry, checked.mcp, NOW + 1)).toBe(checked);
  });

  it('checks in full a proposal that is not that object, however equal', () => {
    const checked = checkProposal(registry, mcp(), NOW);
    const copy = JSON.parse(JSON.stringify(checked.mcp)) as MetadataChangeProposal;
    const again = checkProposalOnce(registry, copy, NOW);
    expect(again).not.toBe(checked);
    expect(again.mcp).toEqual(checked.mcp);
    const tampered = { ...checked.mcp, aspect: { value: '{"removed":"yes"}', contentType: JSON_CONTENT } };
    expect(() => checkProposalOnce(registry, tampered, NOW)).toThrow(RestliError);
  });
});
