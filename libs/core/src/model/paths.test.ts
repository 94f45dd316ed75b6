import { valuesAtPath } from './paths';

describe('valuesAtPath', () => {
  const value = {
    name: 'n',
    owners: [{ owner: 'urn:li:corpuser:a', tags: ['x', 'y'] }, { owner: 'urn:li:corpuser:b', tags: [] }, { owner: null }],
    props: { k1: 'v1', k2: 'v2' },
    nested: { deep: { flag: false, zero: 0 } },
  };

  it('reads a field', () => {
    expect(valuesAtPath(value, '/name')).toEqual(['n']);
    expect(valuesAtPath(value, '/nested/deep/flag')).toEqual([false]);
    expect(valuesAtPath(value, '/nested/deep/zero')).toEqual([0]);
  });

  it('returns the whole value for an empty path', () => {
    expect(valuesAtPath(value, '')).toEqual([value]);
    expect(valuesAtPath(value, '/')).toEqual([value]);
  });

  it('spreads * over array items and map values, skipping nulls', () => {
    expect(valuesAtPath(value, '/owners/*/owner')).toEqual(['urn:li:corpuser:a', 'urn:li:corpuser:b']);
    expect(valuesAtPath(value, '/owners/*/tags/*')).toEqual(['x', 'y']);
    expect(valuesAtPath(value, '/props/*')).toEqual(['v1', 'v2']);
  });

  it('returns nothing for missing paths, nulls, or named segments into arrays', () => {
    expect(valuesAtPath(value, '/nope')).toEqual([]);
    expect(valuesAtPath(value, '/nope/deeper')).toEqual([]);
    expect(valuesAtPath(value, '/owners/owner')).toEqual([]);
    expect(valuesAtPath(value, '/name/*')).toEqual([]);
    expect(valuesAtPath(null, '/name')).toEqual([]);
  });
});

describe('valuesAtPath: order and nulls', () => {
  it('keeps the items of nested lists in document order, and a null item of a list the path ends at', () => {
    const value = { a: [{ b: [1, 2] }, { b: [] }, { b: [3] }, null, { c: 1 }], list: ['x', null, 'y'] };
    expect(valuesAtPath(value, '/a/*/b/*')).toEqual([1, 2, 3]);
    expect(valuesAtPath(value, '/list/*')).toEqual(['x', null, 'y']);
    expect(valuesAtPath(null, '')).toEqual([null]);
  });
});
