import { RestliError } from './errors';
import { parseBoolParam, parseIntParam, parseRestliList, queryList, queryParam, rawQueryValues } from './restli';

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.a,b,PROD)';
const USER = 'urn:li:corpuser:jdoe';

/** Percent-encoding as Rest.li clients do it: `(`, `)` and `,` too (encodeURIComponent leaves parentheses). */
const enc = (s: string) => encodeURIComponent(s).replace(/\(/g, '%28').replace(/\)/g, '%29');

function restliError(fn: () => unknown): RestliError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RestliError);
    return err as RestliError;
  }
  throw new Error('expected a RestliError');
}

describe('parseRestliList', () => {
  it('parses a plain list', () => {
    expect(parseRestliList('List(a,b,c)')).toEqual(['a', 'b', 'c']);
    expect(parseRestliList('List(a)')).toEqual(['a']);
  });

  it('parses an empty list', () => {
    expect(parseRestliList('List()')).toEqual([]);
    expect(parseRestliList('List%28%29')).toEqual([]);
  });

  it('treats a value without List( as a single element, decoded', () => {
    expect(parseRestliList('abc')).toEqual(['abc']);
    expect(parseRestliList(encodeURIComponent(DS))).toEqual([DS]);
    expect(parseRestliList('')).toEqual([]);
  });

  it('parses a fully encoded list', () => {
    expect(enc(`List(${USER})`)).toMatch(/^List%28/);
    expect(parseRestliList(enc(`List(${USER},urn:li:corpuser:other)`))).toEqual([USER, 'urn:li:corpuser:other']);
    expect(parseRestliList(enc(`List(${DS},${USER})`))).toEqual([DS, USER]);
  });

  it('parses a fully encoded list whose elements were encoded first', () => {
    expect(parseRestliList(enc(`List(${enc(DS2)},${enc(USER)})`))).toEqual([DS2, USER]);
  });

  it('keeps encoded commas and parentheses inside their element', () => {
    const raw = `List(${enc(DS2)},${enc(USER)})`;
    expect(raw).toContain('%2C');
    expect(raw).toContain('%28');
    expect(raw).toContain('%29');
    expect(parseRestliList(raw)).toEqual([DS2, USER]);
  });

  it('reads elements encoded by encodeURIComponent (parentheses left plain, commas encoded)', () => {
    expect(parseRestliList(`List(${encodeURIComponent(DS2)},${encodeURIComponent(USER)})`)).toEqual([DS2, USER]);
  });

  it('keeps %2C, %28 and %29 written in upper or lower case inside the element', () => {
    expect(parseRestliList('List(a%2cb,c%28d%29)')).toEqual(['a,b', 'c(d)']);
  });

  it('splits unencoded nested URNs by parenthesis depth', () => {
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)';
    expect(parseRestliList(`List(${DS},${USER},${job})`)).toEqual([DS, USER, job]);
  });

  it('decodes + as a space', () => {
    expect(parseRestliList('List(a+b,c)')).toEqual(['a b', 'c']);
    expect(parseRestliList('a+b')).toEqual(['a b']);
  });

  it('keeps an encoded plus as a plus', () => {
    expect(parseRestliList('List(a%2Bb)')).toEqual(['a+b']);
  });

  it.each([
    ['an unterminated list', 'List(a,b'],
    ['unbalanced parentheses', 'List(a,(b)'],
    ['a stray closing parenthesis', 'List(a),b)'],
    ['malformed percent-encoding in an element', 'List(a%zz)'],
    ['malformed percent-encoding in a single value', '%E0%A4%A'],
  ])('rejects %s with 400', (_what, raw) => {
    expect(restliError(() => parseRestliList(raw)).status).toBe(400);
  });
});

describe('query parameters of a URL', () => {
  it('returns the raw values of a parameter, repeated ones in order', () => {
    expect(rawQueryValues('/x?a=1&b=2&a=%203', 'a')).toEqual(['1', '%203']);
    expect(rawQueryValues('/x?a=1', 'b')).toEqual([]);
    expect(rawQueryValues('/x', 'a')).toEqual([]);
  });

  it('matches encoded parameter names and flags without a value', () => {
    expect(rawQueryValues('/x?my%5Fname=v', 'my_name')).toEqual(['v']);
    expect(rawQueryValues('/x?flag&other=1', 'flag')).toEqual(['']);
  });

  it('keeps = inside a value', () => {
    expect(queryParam('/x?q=a=b', 'q')).toBe('a=b');
  });

  it('decodes a scalar parameter; the last one wins', () => {
    expect(queryParam('/x?a=1&a=2', 'a')).toBe('2');
    expect(queryParam(`/x?urn=${encodeURIComponent(DS)}`, 'urn')).toBe(DS);
    expect(queryParam('/x?b=1', 'a')).toBeUndefined();
    expect(queryParam('/x', 'a')).toBeUndefined();
  });

  it('decodes + as a space and %2B as a plus', () => {
    expect(queryParam('/x?q=hello+world', 'q')).toBe('hello world');
    expect(queryParam('/x?q=a%2Bb', 'q')).toBe('a+b');
  });

  it('rejects malformed percent-encoding with 400', () => {
    expect(restliError(() => queryParam('/x?q=%zz', 'q')).status).toBe(400);
  });

  it('reads a list parameter from List(), repeated parameters, or both', () => {
    expect(queryList(`/x?urns=List(${enc(DS2)},${enc(USER)})`, 'urns')).toEqual([DS2, USER]);
    expect(queryList(`/x?urns=${enc(`List(${DS},${USER})`)}`, 'urns')).toEqual([DS, USER]);
    expect(queryList(`/x?urns=${enc(DS2)}&urns=${enc(USER)}`, 'urns')).toEqual([DS2, USER]);
    expect(queryList(`/x?urns=List(a,b)&urns=c`, 'urns')).toEqual(['a', 'b', 'c']);
    expect(queryList(`/x?aspects=List(ownership)`, 'aspects')).toEqual(['ownership']);
    expect(queryList('/x?aspects=List()', 'aspects')).toEqual([]);
    expect(queryList('/x?other=1', 'urns')).toBeUndefined();
  });

  it('reads + in a list parameter as a space', () => {
    expect(queryList('/x?q=List(a+b,c)', 'q')).toEqual(['a b', 'c']);
  });
});

describe('parseIntParam', () => {
  it('parses integers from strings and numbers', () => {
    expect(parseIntParam('12', 'count')).toBe(12);
    expect(parseIntParam('-3', 'start')).toBe(-3);
    expect(parseIntParam('0', 'start')).toBe(0);
    expect(parseIntParam(7, 'count')).toBe(7);
  });

  it('falls back when absent or empty', () => {
    expect(parseIntParam(undefined, 'count', 10)).toBe(10);
    expect(parseIntParam(null, 'count', 10)).toBe(10);
    expect(parseIntParam('', 'count', 10)).toBe(10);
  });

  it('requires a value without a fallback', () => {
    const err = restliError(() => parseIntParam(undefined, 'count'));
    expect(err.status).toBe(400);
    expect(err.message).toContain('count');
  });

  it.each(['1.5', 'abc', '12abc', 'NaN', 'Infinity', '0x10', '1e3', ' ', '+', '1 2', 1.5])('rejects %p with 400', (value) => {
    const err = restliError(() => parseIntParam(value, 'count', 10));
    expect(err.status).toBe(400);
    expect(err.message).toContain("'count'");
  });
});

describe('parseBoolParam', () => {
  it('parses true and false', () => {
    expect(parseBoolParam('true', 'async', false)).toBe(true);
    expect(parseBoolParam('false', 'async', true)).toBe(false);
    expect(parseBoolParam(true, 'async', false)).toBe(true);
    expect(parseBoolParam(false, 'async', true)).toBe(false);
  });

  it('falls back when absent or empty', () => {
    expect(parseBoolParam(undefined, 'async', true)).toBe(true);
    expect(parseBoolParam('', 'async', false)).toBe(false);
    expect(parseBoolParam(null, 'async', true)).toBe(true);
  });

  it.each(['yes', '1', 'on', 'truth', 1])('rejects %p with 400', (value) => {
    const err = restliError(() => parseBoolParam(value, 'async', false));
    expect(err.status).toBe(400);
    expect(err.message).toContain("'async'");
  });
});
