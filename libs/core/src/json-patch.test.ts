import { applyPatch, parsePatch, PatchError, type PatchOperation } from './json-patch';

const apply = (doc: unknown, ops: unknown) => applyPatch(doc, parsePatch(ops));

describe('parsePatch', () => {
  it('accepts every op with what it needs', () => {
    const ops = [
      { op: 'add', path: '/a', value: 1 },
      { op: 'remove', path: '/a' },
      { op: 'replace', path: '', value: {} },
      { op: 'move', path: '/b', from: '/a' },
      { op: 'copy', path: '/b', from: '/a' },
      { op: 'test', path: '/a', value: null },
    ];
    expect(parsePatch(ops)).toEqual(ops);
  });

  it.each([
    ['a non-array document', { op: 'add', path: '/a', value: 1 }],
    ['a non-object operation', ['add']],
    ['a null operation', [null]],
    ['an unknown op', [{ op: 'merge', path: '/a', value: 1 }]],
    ['a missing op', [{ path: '/a', value: 1 }]],
    ['a missing path', [{ op: 'remove' }]],
    ['a path without a leading slash', [{ op: 'remove', path: 'a' }]],
    ['a non-string path', [{ op: 'remove', path: 1 }]],
    ['move without from', [{ op: 'move', path: '/a' }]],
    ['copy without from', [{ op: 'copy', path: '/a' }]],
    ['add without value', [{ op: 'add', path: '/a' }]],
    ['replace without value', [{ op: 'replace', path: '/a' }]],
    ['test without value', [{ op: 'test', path: '/a' }]],
  ])('rejects %s', (_what, doc) => {
    expect(() => parsePatch(doc)).toThrow(PatchError);
  });

  it('names the failing operation', () => {
    expect(() => parsePatch([{ op: 'add', path: '/a', value: 1 }, { op: 'nope', path: '/a' }])).toThrow(/#1/);
  });
});

describe('applyPatch', () => {
  it('adds object members, replacing an existing one', () => {
    expect(apply({ a: 1 }, [{ op: 'add', path: '/b', value: { c: [1] } }])).toEqual({ a: 1, b: { c: [1] } });
    expect(apply({ a: 1 }, [{ op: 'add', path: '/a', value: 2 }])).toEqual({ a: 2 });
  });

  it('adds nested members', () => {
    expect(apply({ a: { b: {} } }, [{ op: 'add', path: '/a/b/c', value: 'x' }])).toEqual({ a: { b: { c: 'x' } } });
  });

  it('inserts into arrays at an index, at the end, and appends with -', () => {
    expect(apply({ l: [1, 2] }, [{ op: 'add', path: '/l/0', value: 0 }])).toEqual({ l: [0, 1, 2] });
    expect(apply({ l: [1, 2] }, [{ op: 'add', path: '/l/1', value: 9 }])).toEqual({ l: [1, 9, 2] });
    expect(apply({ l: [1, 2] }, [{ op: 'add', path: '/l/2', value: 3 }])).toEqual({ l: [1, 2, 3] });
    expect(apply({ l: [1, 2] }, [{ op: 'add', path: '/l/-', value: 3 }])).toEqual({ l: [1, 2, 3] });
    expect(apply({ l: [] }, [{ op: 'add', path: '/l/-', value: 'a' }, { op: 'add', path: '/l/-', value: 'b' }])).toEqual({ l: ['a', 'b'] });
  });

  it('appends to an array nested in an array of records', () => {
    const doc = { owners: [{ owner: 'urn:li:corpuser:a', tags: [] }] };
    expect(apply(doc, [{ op: 'add', path: '/owners/0/tags/-', value: 't' }])).toEqual({ owners: [{ owner: 'urn:li:corpuser:a', tags: ['t'] }] });
  });

  it('removes object members and array items', () => {
    expect(apply({ a: 1, b: 2 }, [{ op: 'remove', path: '/a' }])).toEqual({ b: 2 });
    expect(apply({ l: [1, 2, 3] }, [{ op: 'remove', path: '/l/1' }])).toEqual({ l: [1, 3] });
  });

  it('replaces object members, array items and the whole document', () => {
    expect(apply({ a: 1, b: 2 }, [{ op: 'replace', path: '/a', value: 5 }])).toEqual({ a: 5, b: 2 });
    expect(apply({ l: [1, 2, 3] }, [{ op: 'replace', path: '/l/1', value: 9 }])).toEqual({ l: [1, 9, 3] });
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: { z: 0 } }])).toEqual({ z: 0 });
  });

  it('moves and copies', () => {
    expect(apply({ a: { x: 1 }, b: {} }, [{ op: 'move', from: '/a/x', path: '/b/y' }])).toEqual({ a: {}, b: { y: 1 } });
    expect(apply({ l: [1, 2, 3] }, [{ op: 'move', from: '/l/0', path: '/l/-' }])).toEqual({ l: [2, 3, 1] });
    const copied = apply({ a: { x: [1] } }, [{ op: 'copy', from: '/a', path: '/b' }]) as { a: { x: number[] }; b: { x: number[] } };
    expect(copied).toEqual({ a: { x: [1] }, b: { x: [1] } });
    expect(copied.a).not.toBe(copied.b);
  });

  it('passes a test op whatever the key order of the value', () => {
    expect(apply({ a: { x: 1, y: [1, 2] } }, [{ op: 'test', path: '/a', value: { y: [1, 2], x: 1 } }])).toEqual({ a: { x: 1, y: [1, 2] } });
    expect(apply({ a: null }, [{ op: 'test', path: '/a', value: null }])).toEqual({ a: null });
    expect(apply({ l: ['x'] }, [{ op: 'test', path: '/l/0', value: 'x' }])).toEqual({ l: ['x'] });
  });

  it.each([
    ['a different scalar', { a: 1 }, { op: 'test', path: '/a', value: 2 }],
    ['a different type', { a: 1 }, { op: 'test', path: '/a', value: '1' }],
    ['a different array order', { a: [1, 2] }, { op: 'test', path: '/a', value: [2, 1] }],
    ['a missing member', { a: 1 }, { op: 'test', path: '/b', value: 1 }],
  ])('fails a test op on %s', (_what, doc, op) => {
    expect(() => apply(doc, [op])).toThrow(PatchError);
  });

  it('is atomic: a failing test leaves the input untouched', () => {
    const doc = { a: 1 };
    expect(() => apply(doc, [{ op: 'replace', path: '/a', value: 2 }, { op: 'test', path: '/a', value: 3 }])).toThrow(/Test failed at \/a/);
    expect(doc).toEqual({ a: 1 });
  });

  it('never changes the input document', () => {
    const doc = { a: { b: [1] } };
    const out = apply(doc, [{ op: 'add', path: '/a/b/-', value: 2 }, { op: 'add', path: '/c', value: 3 }]);
    expect(doc).toEqual({ a: { b: [1] } });
    expect(out).toEqual({ a: { b: [1, 2] }, c: 3 });
  });

  it('does not alias the value of an add op', () => {
    const value = { x: 1 };
    const ops: PatchOperation[] = [{ op: 'add', path: '/v', value }];
    const out = applyPatch({}, ops) as { v: { x: number } };
    out.v.x = 2;
    expect(value.x).toBe(1);
  });

  it('unescapes ~1 to / and ~0 to ~ in path tokens', () => {
    expect(apply({}, [{ op: 'add', path: '/a~1b', value: 1 }])).toEqual({ 'a/b': 1 });
    expect(apply({}, [{ op: 'add', path: '/m~0n', value: 1 }])).toEqual({ 'm~n': 1 });
    const props = { customProperties: { 'path/to': 'x', 'x~y': 'y' } };
    expect(apply(props, [{ op: 'remove', path: '/customProperties/path~1to' }])).toEqual({ customProperties: { 'x~y': 'y' } });
    expect(apply(props, [{ op: 'replace', path: '/customProperties/x~0y', value: 'z' }])).toEqual({ customProperties: { 'path/to': 'x', 'x~y': 'z' } });
  });

  it('unescapes ~01 to the literal ~1, not to /', () => {
    expect(apply({}, [{ op: 'add', path: '/~01', value: 1 }])).toEqual({ '~1': 1 });
  });

  it('reads an empty token as the empty key', () => {
    expect(apply({ '': 1 }, [{ op: 'replace', path: '/', value: 2 }])).toEqual({ '': 2 });
  });

  it.each([
    ['add under a missing parent', { a: 1 }, { op: 'add', path: '/x/y', value: 1 }],
    ['add under a scalar', { a: 1 }, { op: 'add', path: '/a/b', value: 1 }],
    ['add past the end of an array', { l: [1] }, { op: 'add', path: '/l/2', value: 1 }],
    ['add at a non-numeric array index', { l: [1] }, { op: 'add', path: '/l/x', value: 1 }],
    ['add at a negative array index', { l: [1] }, { op: 'add', path: '/l/-1', value: 1 }],
    ['remove a missing member', { a: 1 }, { op: 'remove', path: '/b' }],
    ['remove past the end of an array', { l: [1] }, { op: 'remove', path: '/l/1' }],
    ['remove with - ', { l: [1] }, { op: 'remove', path: '/l/-' }],
    ['remove the whole document', { a: 1 }, { op: 'remove', path: '' }],
    ['replace a missing member', { a: 1 }, { op: 'replace', path: '/b', value: 1 }],
    ['replace past the end of an array', { l: [1] }, { op: 'replace', path: '/l/1', value: 1 }],
    ['move from a missing member', { a: 1 }, { op: 'move', from: '/b', path: '/c' }],
    ['copy from a missing member', { a: 1 }, { op: 'copy', from: '/b', path: '/c' }],
    ['traverse through a missing array item', { l: [] }, { op: 'add', path: '/l/0/x', value: 1 }],
  ])('throws PatchError to %s', (_what, doc, op) => {
    expect(() => apply(doc, [op])).toThrow(PatchError);
  });

  it('does not reach inherited members of objects', () => {
    expect(() => apply({}, [{ op: 'remove', path: '/toString' }])).toThrow(PatchError);
    expect(() => apply({}, [{ op: 'test', path: '/constructor', value: {} }])).toThrow(PatchError);
    expect(() => apply({}, [{ op: 'copy', from: '/constructor', path: '/x' }])).toThrow(PatchError);
  });

  it('cannot pollute Object.prototype through __proto__', () => {
    // applyPatch works on structuredClone copies, which may come from another realm than this file's `{}`.
    const prototypes = [Object.prototype, Object.getPrototypeOf(structuredClone({}))] as Record<string, unknown>[];
    try {
      expect(() => apply({}, [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }])).toThrow(PatchError);
      expect(() => apply({}, [{ op: 'add', path: '/constructor/prototype/polluted', value: 'yes' }])).toThrow(PatchError);
      for (const proto of prototypes) expect(proto.polluted).toBeUndefined();
    } finally {
      for (const proto of prototypes) delete proto.polluted;
    }
  });

  it('adds a member named __proto__ as plain data', () => {
    const out = apply({}, [{ op: 'add', path: '/__proto__', value: { polluted: 'yes' } }]) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(out))).toBeNull();
    expect(out.polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"yes"}}');
  });
});
