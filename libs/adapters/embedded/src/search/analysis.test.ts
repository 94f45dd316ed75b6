import type { IndexFieldMapping } from '@cairn/ports';
import { indexWords } from '@cairn/search';
import { openDatabase, type EmbeddedDb } from '../database';
import { analyseField, fieldRows, fieldWordText, layoutOfMapping, writtenTerms } from './analysis';
import { termTokenText, valueTokenText } from './value-tokens';
import { WORD_INDEX_OPTIONS } from './search-tables';

/** The `n`th of a fixed sequence of picks from `count` items: varied, and the same on every run. */
function pickIndex(n: number, i: number, count: number): number {
  return (n * 31 + i * i * 17 + i * 13) % count;
}

describe("a field's word text, as the word index tokenizes it", () => {
  let db: EmbeddedDb;
  let insert: (rowid: number, text: string) => void;
  let tokensOf: (rowid: number) => string[];

  beforeAll(() => {
    db = openDatabase(':memory:');
    db.exec(`CREATE VIRTUAL TABLE word_index USING fts5(words, ${WORD_INDEX_OPTIONS}); CREATE VIRTUAL TABLE tokens USING fts5vocab(word_index, 'instance');`);
    const add = db.prepare('INSERT INTO word_index (rowid, words) VALUES (?, ?)');
    const read = db.prepare('SELECT term FROM tokens WHERE doc = ? ORDER BY offset').pluck();
    insert = (rowid, text) => void add.run(rowid, text);
    tokensOf = (rowid) => read.all(rowid) as string[];
  });
  afterAll(() => db.close());

  it('yields the words of each value, then their compound parts, in order (accents removed by the tokenizer)', () => {
    const text = fieldWordText('TEXT', ['SampleKafkaDataset', 'customer_id.amount', '  --  ', 'HTTPServer v2beta', 'ÉtéDonnées naïveCafé']);
    expect(text).toBe('SampleKafkaDataset Sample Kafka Dataset customer_id.amount HTTPServer v2beta HTTP Server v 2 beta étédonnées naïvecafé été données naïve café');
    insert(1, text);
    expect(tokensOf(1)).toEqual(['samplekafkadataset', 'sample', 'kafka', 'dataset', 'customer', 'id', 'amount', 'httpserver', 'v2beta', 'http', 'server', 'v', '2', 'beta', 'etedonnees', 'naivecafe', 'ete', 'donnees', 'naive', 'cafe']);
  });

  it('is the value itself when it has no compound words, and empty when it has no words', () => {
    const value = 'already lower words, and punctuation: (here)';
    expect(fieldWordText('TEXT', value)).toBe(value);
    expect(fieldWordText('TEXT', ['--', '  '])).toBe('');
    expect(fieldWordText('COUNT', 'words')).toBe('');
  });

  it('tokenizes to the words `indexWords` splits, on ASCII text of every kind of character', () => {
    const alphabet = 'aAbBzZ09_- .:/()[]{}"\'\t\n~`!@#$%^&*+=|\\<>?,;';
    const disagreements: string[] = [];
    for (let rowid = 100; rowid < 3_100; rowid++) {
      const length = (rowid * 7) % 40;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[pickIndex(rowid, i, alphabet.length)];
      const indexed = fieldWordText('TEXT', text);
      if (indexed) insert(rowid, indexed);
      if (tokensOf(rowid).join('|') !== indexWords(text).join('|')) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
  });
});

describe("a field's rows", () => {
  const mapping = (type: IndexFieldMapping['type'], extra: Partial<IndexFieldMapping> = {}): IndexFieldMapping => ({ type, autocomplete: false, ...extra });
  const mappings = [
    undefined,
    mapping('TEXT'),
    mapping('KEYWORD'),
    mapping('URN'),
    mapping('URN_PARTIAL'),
    mapping('TEXT', { lookupTerms: false }),
    mapping('COUNT'),
    mapping('KEYWORD', { manyValues: true }),
    mapping('KEYWORD', { prefixLookups: true }),
  ];
  const pick = <T>(items: readonly T[], n: number, i: number): T => items[pickIndex(n, i, items.length)]!;
  const scalars = ['Hive', 'hive', 'urn:li:dataPlatform:hive', 'urn:li:corpuser:Jdoe', 'SampleHiveDataset', 'x'.repeat(513), 'X'.repeat(513), '', 'ÉtéDonnées', 7, true, { a: 'B' }, null];

  it('are what the analysis of the value writes, for one value, several or none', () => {
    for (let n = 0; n < 2_000; n++) {
      const mapping = pick(mappings, n, 0);
      const value = n % 2 === 0 ? pick(scalars, n, 1) : Array.from({ length: n % 5 }, (_, i) => pick(scalars, n, i + 2));
      const analysed = analyseField(mapping, value, false);
      const terms = writtenTerms(analysed.values, analysed.terms);
      const layout = layoutOfMapping(mapping);
      expect(fieldRows(mapping, value)).toEqual({
        values: analysed.values,
        terms,
        words: analysed.words,
        valueTokens: layout.valueTokens && analysed.values.length ? valueTokenText(analysed.values) : undefined,
        termTokens: layout.termTokens && terms.length ? termTokenText(terms) : undefined,
      });
    }
  });

  it('write a lower-cased term only where it differs from the value, and a URN its components', () => {
    expect(fieldRows(mapping('KEYWORD'), 'Hive')).toEqual({ values: ['Hive'], terms: ['hive'], words: 'Hive', valueTokens: undefined, termTokens: termTokenText(['hive']) });
    expect(fieldRows(mapping('KEYWORD'), 'hive').terms).toEqual([]);
    expect(fieldRows(mapping('URN'), 'urn:li:corpuser:Jdoe').terms).toEqual(['urn:li:corpuser:jdoe', 'jdoe']);
    expect(fieldRows(mapping('KEYWORD'), ['a', 'a', 'B']).values).toEqual(['a', 'B']);
    expect(fieldRows(mapping('KEYWORD'), 'x'.repeat(513))).toEqual({ values: [], terms: [], words: 'x'.repeat(513), valueTokens: undefined, termTokens: undefined });
  });

  it('spell values as tokens for a field of many values, and terms for one no prefix lookup reads', () => {
    expect(fieldRows(mapping('KEYWORD', { manyValues: true }), ['Id', 'name'])).toMatchObject({ valueTokens: valueTokenText(['Id', 'name']), termTokens: undefined });
    expect(fieldRows(mapping('KEYWORD', { prefixLookups: true }), 'Hive')).toMatchObject({ terms: ['hive'], valueTokens: undefined, termTokens: undefined });
  });
});
