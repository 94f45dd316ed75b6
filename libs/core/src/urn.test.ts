import { entityTypeOf, formatUrn, isUrn, parseUrn, splitTopLevel, UrnSyntaxError } from './urn';
import { defaultRegistry } from './model/registry';

const HIVE = 'urn:li:dataPlatform:hive';

describe('parseUrn', () => {
  it('parses a simple URN', () => {
    const urn = parseUrn('urn:li:corpuser:jdoe');
    expect(urn).toEqual({ raw: 'urn:li:corpuser:jdoe', entityType: 'corpuser', id: 'jdoe', parts: ['jdoe'] });
  });

  it('keeps colons of a simple key in the id', () => {
    const urn = parseUrn('urn:li:tag:a:b:c');
    expect(urn.entityType).toBe('tag');
    expect(urn.id).toBe('a:b:c');
    expect(urn.parts).toEqual(['a:b:c']);
  });

  it('splits a tuple key into its top-level parts', () => {
    const urn = parseUrn(`urn:li:dataset:(${HIVE},db.table,PROD)`);
    expect(urn.entityType).toBe('dataset');
    expect(urn.id).toBe(`(${HIVE},db.table,PROD)`);
    expect(urn.parts).toEqual([HIVE, 'db.table', 'PROD']);
  });

  it('keeps a nested tuple URN as one part', () => {
    const flow = 'urn:li:dataFlow:(airflow,dag_1,prod)';
    const urn = parseUrn(`urn:li:dataJob:(${flow},task_1)`);
    expect(urn.parts).toEqual([flow, 'task_1']);
    expect(parseUrn(urn.parts[0]).parts).toEqual(['airflow', 'dag_1', 'prod']);
  });

  it('keeps parentheses inside a tuple element', () => {
    expect(parseUrn(`urn:li:dataset:(${HIVE},fn(x,y),PROD)`).parts).toEqual([HIVE, 'fn(x,y)', 'PROD']);
  });

  it.each([
    ['no prefix', 'li:corpuser:jdoe'],
    ['wrong prefix', 'urn:xx:corpuser:jdoe'],
    ['upper-case prefix', 'URN:LI:corpuser:jdoe'],
    ['empty string', ''],
    ['prefix only', 'urn:li:'],
    ['no key separator', 'urn:li:corpuser'],
    ['empty entity type', 'urn:li::jdoe'],
    ['empty key', 'urn:li:corpuser:'],
    ['entity type starting with a digit', 'urn:li:1user:jdoe'],
    ['entity type with a dash', 'urn:li:corp-user:jdoe'],
    ['entity type with a dot', 'urn:li:corp.user:jdoe'],
    ['entity type with a space', 'urn:li:corp user:jdoe'],
    ['unterminated tuple', `urn:li:dataset:(${HIVE},db.t,PROD`],
    ['unbalanced open parenthesis', `urn:li:dataset:(${HIVE},fn(x,PROD)`],
    ['unbalanced close parenthesis', `urn:li:dataset:(${HIVE},db.t),PROD)`],
    ['two tuples', `urn:li:dataset:(a,b)(c)`],
    ['empty tuple', 'urn:li:dataset:()'],
    ['empty middle element', `urn:li:dataset:(${HIVE},,PROD)`],
    ['empty last element', `urn:li:dataset:(${HIVE},db.t,)`],
    ['empty first element', `urn:li:dataset:(,db.t,PROD)`],
  ])('rejects %s', (_what, raw) => {
    expect(() => parseUrn(raw)).toThrow(UrnSyntaxError);
    expect(isUrn(raw)).toBe(false);
    expect(entityTypeOf(raw)).toBeNull();
  });

  it('rejects values that are not strings', () => {
    expect(() => parseUrn(undefined as unknown as string)).toThrow(UrnSyntaxError);
    expect(isUrn(42)).toBe(false);
    expect(isUrn(null)).toBe(false);
  });

  it('answers isUrn and entityTypeOf for valid URNs', () => {
    expect(isUrn('urn:li:corpuser:jdoe')).toBe(true);
    expect(entityTypeOf(`urn:li:dataset:(${HIVE},db.t,PROD)`)).toBe('dataset');
  });
});

describe('isUrn', () => {
  it('answers as parseUrn does, for any string', () => {
    const parses = (raw: string) => {
      try {
        parseUrn(raw);
        return true;
      } catch {
        return false;
      }
    };
    // Strings built from the characters that matter to the syntax, around valid and broken URNs.
    const pieces = ['urn:li:', 'dataset', 'corp_user1', '1x', ':', '(', ')', ',', 'a', 'b.c', '', ' ', '-', 'urn:li:dataPlatform:hive'];
    let state = 7;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return (state >>> 16) % n;
    };
    const samples = [`urn:li:dataset:(${HIVE},db.t,PROD)`, 'urn:li:corpuser:jdoe', 'urn:li:x:(a,(b,c))', 'urn:li:x:(', 'urn:li:x:)', 'urn:li:x:(a))'];
    for (let n = 0; n < 20_000; n++) {
      let raw = n % 3 === 0 ? 'urn:li:' : '';
      for (let k = 1 + (n % 9); k > 0; k--) raw += pieces[next(pieces.length)];
      samples.push(raw);
    }
    // Keys after a valid prefix and type: tuples, nested, empty elements, unbalanced.
    const keyPieces = ['(', ')', ',', 'a', 'b.c', 'urn:li:x:y'];
    for (let n = 0; n < 20_000; n++) {
      let key = '';
      for (let k = 1 + (n % 7); k > 0; k--) key += keyPieces[next(keyPieces.length)];
      samples.push(`urn:li:dataset:${key}`);
    }
    const disagreements = samples.filter((raw) => isUrn(raw) !== parses(raw));
    expect(disagreements).toEqual([]);
    expect(samples.filter(parses).length).toBeGreaterThan(1000);
  });
});

describe('splitTopLevel', () => {
  it('splits at depth zero only', () => {
    expect(splitTopLevel('a,(b,c),d')).toEqual(['a', '(b,c)', 'd']);
    expect(splitTopLevel('a')).toEqual(['a']);
    expect(splitTopLevel('')).toEqual(['']);
    expect(splitTopLevel('a,,b')).toEqual(['a', '', 'b']);
  });

  it('returns null when parentheses are unbalanced', () => {
    expect(splitTopLevel('a,(b')).toBeNull();
    expect(splitTopLevel('a),(b')).toBeNull();
  });
});

describe('formatUrn', () => {
  it('formats simple and tuple keys', () => {
    expect(formatUrn('corpuser', ['jdoe'])).toBe('urn:li:corpuser:jdoe');
    expect(formatUrn('dataset', [HIVE, 'db.t', 'PROD'])).toBe(`urn:li:dataset:(${HIVE},db.t,PROD)`);
  });

  it.each([
    'urn:li:corpuser:jdoe',
    `urn:li:dataset:(${HIVE},db.t,PROD)`,
    'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_1,prod),task_1)',
    `urn:li:dataset:(${HIVE},fn(x),PROD)`,
    `urn:li:dataset:(${HIVE},db.a,b,PROD)`,
  ])('round-trips %s', (raw) => {
    const urn = parseUrn(raw);
    expect(formatUrn(urn.entityType, urn.parts)).toBe(raw);
  });
});

describe('entity URNs against the registry', () => {
  const registry = defaultRegistry();

  function key(raw: string): Record<string, unknown> {
    const { urn, entity } = registry.parseEntityUrn(raw);
    return registry.keyFromUrn(urn, entity);
  }

  it('reads the key of a simple URN', () => {
    const { entity } = registry.parseEntityUrn('urn:li:corpuser:jdoe');
    expect(entity.name).toBe('corpuser');
    expect(key('urn:li:corpuser:jdoe')).toEqual({ username: 'jdoe' });
  });

  it('keeps commas of a single-field key in the field', () => {
    expect(key('urn:li:corpuser:a,b')).toEqual({ username: 'a,b' });
  });

  it('finds the entity whatever the case of the entity type', () => {
    expect(registry.parseEntityUrn('urn:li:corpUser:jdoe').entity.name).toBe('corpuser');
  });

  it('reads the key of a dataset URN', () => {
    expect(key(`urn:li:dataset:(${HIVE},db.t,PROD)`)).toEqual({ platform: HIVE, name: 'db.t', origin: 'PROD' });
  });

  it('joins extra parts into the dataset name (a name holding commas)', () => {
    expect(key(`urn:li:dataset:(${HIVE},db.a,b,PROD)`)).toEqual({ platform: HIVE, name: 'db.a,b', origin: 'PROD' });
    expect(key(`urn:li:dataset:(${HIVE},a,b,c,d,PROD)`)).toEqual({ platform: HIVE, name: 'a,b,c,d', origin: 'PROD' });
  });

  it('keeps parentheses inside the dataset name', () => {
    expect(key(`urn:li:dataset:(${HIVE},fn(x),PROD)`)).toEqual({ platform: HIVE, name: 'fn(x)', origin: 'PROD' });
    expect(key(`urn:li:dataset:(${HIVE},fn(x,y),PROD)`)).toEqual({ platform: HIVE, name: 'fn(x,y)', origin: 'PROD' });
  });

  it('reads a dataJob URN holding a dataFlow URN', () => {
    const flow = 'urn:li:dataFlow:(airflow,dag_1,prod)';
    const { entity } = registry.parseEntityUrn(`urn:li:dataJob:(${flow},task_1)`);
    expect(entity.name).toBe('dataJob');
    expect(key(`urn:li:dataJob:(${flow},task_1)`)).toEqual({ flow, jobId: 'task_1' });
    expect(key(`urn:li:dataJob:(${flow},task,with,commas)`)).toEqual({ flow, jobId: 'task,with,commas' });
  });

  it('joins extra parts of a dataFlow URN into the flow id', () => {
    expect(key('urn:li:dataFlow:(airflow,my,dag,prod)')).toEqual({ orchestrator: 'airflow', flowId: 'my,dag', cluster: 'prod' });
  });

  it.each([
    ['an unknown entity type', 'urn:li:noSuchEntity:x'],
    ['too few key parts', `urn:li:dataset:(${HIVE},db.t)`],
    ['a simple key for a tuple entity', 'urn:li:dataset:db.t'],
    ['a platform that is not a URN', 'urn:li:dataset:(hive,db.t,PROD)'],
    ['an unknown FabricType', `urn:li:dataset:(${HIVE},db.t,NOPE)`],
    ['a lower-case FabricType', `urn:li:dataset:(${HIVE},db.t,prod)`],
    ['a dataJob whose flow is not a URN', 'urn:li:dataJob:(airflow,task_1)'],
    ['a syntactically invalid URN', `urn:li:dataset:(${HIVE},,PROD)`],
  ])('rejects %s', (_what, raw) => {
    expect(() => registry.parseEntityUrn(raw)).toThrow(UrnSyntaxError);
  });
});
