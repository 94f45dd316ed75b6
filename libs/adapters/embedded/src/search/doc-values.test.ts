import { openDatabase } from '../database';
import { DocValues } from './doc-values';
import { createSearchTables, FieldRegistry } from './search-tables';

describe('DocValues', () => {
  function withRows(rows: [number, string][]): DocValues {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const insert = db.prepare('INSERT INTO search_values (field_id, value, doc_id) VALUES (1, ?, ?)');
    for (const [docId, value] of rows) insert.run(value, docId);
    return new DocValues(db, new FieldRegistry(db, new Map()));
  }
  const counts = (values: DocValues, docs: number[]) => values.counts(new Map([[1, docs]]), 10);

  it('loads single and several values per document, then counts them', () => {
    const values = withRows([
      [1, 'a'],
      [1, 'b'],
      [2, 'b'],
      [3, 'c'],
      [3, 'b'],
      [3, 'a'],
    ]);
    expect(counts(values, [1, 2, 3])).toEqual([
      { value: 'b', count: 3 },
      { value: 'a', count: 2 },
      { value: 'c', count: 1 },
    ]);
    expect(values.values([1], 3).sort()).toEqual(['a', 'b', 'c']);
  });

  it('counts the current values after many rewrites of multi-valued documents', () => {
    const values = withRows([[1, 'x']]);
    counts(values, [1]);
    const docs = Array.from({ length: 200 }, (_, i) => i + 1);
    for (let round = 0; round < 50; round++) {
      for (const docId of docs) values.update(1, docId, [`r${round}`, `d${docId % 3}`, 'all']);
    }
    values.update(1, 7, ['single']);
    values.deleteDoc(8);
    const result = counts(values, docs);
    expect(result.slice(0, 2)).toEqual([
      { value: 'all', count: 198 },
      { value: 'r49', count: 198 },
    ]);
    expect(result).toContainEqual({ value: 'single', count: 1 });
    expect(result.find((c) => c.value.startsWith('r') && c.value !== 'r49')).toBeUndefined();
    expect(values.values([1], 9).sort()).toEqual(['all', 'd0', 'r49']);
  });
});

describe('DocValues counted over the other documents', () => {
  it('gives the same counts as counting the documents, after rewrites and deletes', () => {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const insert = db.prepare('INSERT INTO search_values (field_id, value, doc_id) VALUES (1, ?, ?)');
    const docs = Array.from({ length: 300 }, (_, i) => i + 1);
    let seed = 7;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const someValues = () => Array.from({ length: random(4) }, () => `v${random(25)}`);
    for (const docId of docs) for (const value of new Set(someValues())) insert.run(value, docId);
    const values = new DocValues(db, new FieldRegistry(db, new Map()));
    values.counts(new Map([[1, docs]]), 1);
    for (let i = 0; i < 2000; i++) values.update(1, 1 + random(320), [...new Set(someValues())]);
    for (let i = 0; i < 20; i++) values.deleteDoc(1 + random(320));
    const universe = Array.from({ length: 320 }, (_, i) => i + 1);
    for (let round = 0; round < 5; round++) {
      const matched = universe.filter(() => random(10) < 8);
      const others = universe.filter((docId) => !matched.includes(docId));
      const direct = values.counts(new Map([[1, matched]]), 100);
      expect(direct.length).toBeGreaterThan(10);
      expect(values.counts(new Map([[1, { allBut: others }]]), 100)).toEqual(direct);
    }
  });
});
