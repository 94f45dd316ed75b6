import { canonicalJson, DEFAULT_RUN_ID, REGISTRY_NAME, REGISTRY_VERSION, sameAspectValue, withSystemMetadataDefaults } from './aspect-values';

describe('canonicalJson', () => {
  it('sorts object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
  });

  it('encodes scalars as JSON does', () => {
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(true)).toBe('true');
  });

  it('gives equal text for equal data in any key order', () => {
    expect(canonicalJson({ x: 1, y: { p: 'a', q: 'b' } })).toBe(canonicalJson({ y: { q: 'b', p: 'a' }, x: 1 }));
  });
});

describe('sameAspectValue', () => {
  it('compares data, not text', () => {
    expect(sameAspectValue('{"a":1,"b":{"c":2,"d":3}}', '{ "b": {"d":3, "c":2}, "a": 1 }')).toBe(true);
    expect(sameAspectValue('{"a":1}', '{"a":1}')).toBe(true);
  });

  it('tells different values apart', () => {
    expect(sameAspectValue('{"a":1}', '{"a":2}')).toBe(false);
    expect(sameAspectValue('{"a":1}', '{"a":1,"b":2}')).toBe(false);
    expect(sameAspectValue('{"l":[1,2]}', '{"l":[2,1]}')).toBe(false);
    expect(sameAspectValue('{"a":1}', '{"a":"1"}')).toBe(false);
    expect(sameAspectValue('{"a":null}', '{}')).toBe(false);
  });

  it('treats unparseable text as different unless identical', () => {
    expect(sameAspectValue('{oops', '{"a":1}')).toBe(false);
    expect(sameAspectValue('{oops', '{oops')).toBe(true);
  });
});

describe('withSystemMetadataDefaults', () => {
  const NOW = 1_700_000_000_000;

  it('fills every default when nothing is given', () => {
    expect(withSystemMetadataDefaults(undefined, NOW)).toEqual({
      lastObserved: NOW,
      runId: DEFAULT_RUN_ID,
      registryName: REGISTRY_NAME,
      registryVersion: REGISTRY_VERSION,
    });
    expect(DEFAULT_RUN_ID).toBe('no-run-id-provided');
  });

  it('keeps what the producer set', () => {
    const given = { lastObserved: 5, runId: 'run-1', registryName: 'r', registryVersion: 'v', properties: { k: 'v' } };
    expect(withSystemMetadataDefaults(given, NOW)).toEqual(given);
  });

  it('replaces a zero or negative lastObserved with now', () => {
    expect(withSystemMetadataDefaults({ lastObserved: 0 }, NOW).lastObserved).toBe(NOW);
    expect(withSystemMetadataDefaults({ lastObserved: -1 }, NOW).lastObserved).toBe(NOW);
  });

  it('fills only the missing fields and keeps properties', () => {
    const out = withSystemMetadataDefaults({ runId: 'run-2', properties: { a: 'b' } }, NOW);
    expect(out).toEqual({ runId: 'run-2', properties: { a: 'b' }, lastObserved: NOW, registryName: REGISTRY_NAME, registryVersion: REGISTRY_VERSION });
  });

  it('does not change its argument', () => {
    const given = { runId: 'run-3' };
    withSystemMetadataDefaults(given, NOW);
    expect(given).toEqual({ runId: 'run-3' });
  });
});
