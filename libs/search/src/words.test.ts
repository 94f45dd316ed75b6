import { holdsWords, indexWords, queryForms, scalarValues, urnComponents } from './words';

/** The rules as Unicode expressions: what the one-pass split of ASCII text must agree with. */
function byExpressions(text: string): string[] {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const camel = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;
  const parts = words.flatMap((w) => {
    const split = w.split(camel);
    return split.length > 1 ? split : [];
  });
  return [...words, ...parts].map((w) => w.toLowerCase());
}

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('indexWords', () => {
  it('splits words and their compound parts, lower-cased', () => {
    expect(indexWords('SampleKafkaDataset')).toEqual(['samplekafkadataset', 'sample', 'kafka', 'dataset']);
    expect(indexWords('HTTPServer v2beta')).toEqual(['httpserver', 'v2beta', 'http', 'server', 'v', '2', 'beta']);
    expect(indexWords('customer_id.amount')).toEqual(['customer', 'id', 'amount']);
    expect(indexWords('  --  ')).toEqual([]);
    expect(indexWords('ABC')).toEqual(['abc']);
    expect(indexWords('aB')).toEqual(['ab', 'a', 'b']);
    expect(indexWords('ABc')).toEqual(['abc', 'a', 'bc']);
    expect(indexWords('x1y22Z')).toEqual(['x1y22z', 'x', '1', 'y', '22', 'z']);
  });

  it('agrees with the Unicode rules on ASCII text of every kind of character', () => {
    const next = random(7);
    const alphabet = 'aAbBzZ09_- .:/()[]{}"\'\t\n~`!@#$%^&*+=|\\<>?,;';
    const disagreements: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      const length = Math.floor(next() * 24);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      if (indexWords(text).join('|') !== byExpressions(text).join('|')) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
  });

  it('agrees with the Unicode rules on identifiers as catalogs name things', () => {
    for (const text of ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)', 'fct_users_deleted', 'XMLHttpRequest2Json', 'iOSApp', 'S3Bucket', 'A1B2c3', 'already lower words here', 'UPPER_CASE_ONLY', 'mixedCASEWord']) {
      expect(indexWords(text)).toEqual(byExpressions(text));
    }
  });

  it('splits text with other scripts and accents by the same rules', () => {
    expect(indexWords('ÉtéDonnées naïveCafé')).toEqual(['étédonnées', 'naïvecafé', 'été', 'données', 'naïve', 'café']);
    expect(indexWords('数据 table1')).toEqual(['数据', 'table1', 'table', '1']);
    expect(indexWords('ÜberSchema')).toEqual(byExpressions('ÜberSchema'));
  });
});

describe('queryForms', () => {
  it('answers the whole words, and their parts when any word is compound', () => {
    expect(queryForms('kafka dataset')).toEqual([['kafka', 'dataset']]);
    expect(queryForms('SampleKafka events')).toEqual([
      ['samplekafka', 'events'],
      ['sample', 'kafka', 'events'],
    ]);
    expect(queryForms(' -- ')).toEqual([]);
  });
});

describe('holdsWords', () => {
  it('finds a value holding every word of a form as a prefix of its words', () => {
    expect(holdsWords('SampleKafkaDataset', queryForms('kaf data'))).toBe(true);
    expect(holdsWords('SampleKafkaDataset', queryForms('hive'))).toBe(false);
  });
});

describe('urnComponents and scalarValues', () => {
  it('names a URN by its parts, nested ones too, and nothing for other text', () => {
    expect(urnComponents('urn:li:dataset:(urn:li:dataPlatform:hive,logs,PROD)')).toEqual(['urn:li:dataPlatform:hive', 'hive', 'logs', 'PROD']);
    expect(urnComponents('not a urn')).toEqual([]);
  });

  it('spreads arrays and writes scalars as text', () => {
    expect(scalarValues(['a', 2, true, null, { k: 1 }])).toEqual(['a', '2', 'true', '{"k":1}']);
    expect(scalarValues(undefined)).toEqual([]);
  });
});
