import type { SearchFields } from '@cairn/ports';
import { openDatabase } from '../database';
import { DocCatalog } from './doc-catalog';
import { DocValues } from './doc-values';
import { DocumentWriter } from './document-writer';
import { LocalReaderState } from './reader-state';
import { rowsOfFields } from './analysis';
import { acTable, createSearchTables, FIELD_SLOTS, FieldRegistry } from './search-tables';

describe('DocumentWriter', () => {
  it('leaves no field of a failed transaction in the registry, so no two fields share an id', () => {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const fields = new FieldRegistry(db, new Map());
    const writer = new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db, fields)));
    const unstorable = { urn: 'b', broken: 1n } as unknown as SearchFields;
    expect(() =>
      writer.applyAll([
        { kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { urn: 'a', lost: 'x' } },
        { kind: 'upsert', entityType: 'dataset', urn: 'b', fields: unstorable },
      ]),
    ).toThrow(/BigInt/);
    writer.applyAll([
      { kind: 'upsert', entityType: 'dataset', urn: 'c', fields: { urn: 'c', kept: 'y' } },
      { kind: 'upsert', entityType: 'dataset', urn: 'd', fields: { urn: 'd', lost: 'x' } },
    ]);
    const rows = db.prepare('SELECT name, field_id FROM search_fields ORDER BY name').all() as { name: string; field_id: number }[];
    expect(rows.map((r) => r.name)).toEqual(['kept', 'lost', 'urn']);
    for (const { name, field_id } of rows) expect(fields.known('dataset', name)?.id).toBe(field_id);
    db.close();
  });
});

describe('DocumentWriter word rows', () => {
  function writerOn(db: ReturnType<typeof openDatabase>): DocumentWriter {
    createSearchTables(db);
    const fields = new FieldRegistry(db, new Map());
    return new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db, fields)));
  }
  const matches = (db: ReturnType<typeof openDatabase>, word: string) =>
    (db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid').pluck().all(word) as number[]).map((r) => `${Math.floor(r / 65536)}/${r % 65536}`);

  it('replaces a field’s words changed twice in one transaction, and keeps the other fields’ words', () => {
    const db = openDatabase(':memory:');
    const writer = writerOn(db);
    writer.applyAll([{ kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { urn: 'a', name: 'orders', description: 'daily totals' } }]);
    writer.applyAll([
      { kind: 'upsert', entityType: 'dataset', urn: 'b', fields: { urn: 'b', description: 'weekly totals' } },
      { kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { description: 'hourly totals' } },
      { kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { description: 'monthly totals' } },
    ]);
    const description = (db.prepare("SELECT field_id FROM search_fields WHERE name = 'description'").pluck().get() as number) ?? 0;
    expect(matches(db, 'daily')).toEqual([]);
    expect(matches(db, 'hourly')).toEqual([]);
    expect(matches(db, 'monthly')).toEqual([`1/${description}`]);
    expect(matches(db, 'totals')).toEqual([`1/${description}`, `2/${description}`]);
    expect(matches(db, 'orders')).toHaveLength(1);
    db.close();
  });

  it('writes a transaction’s words as one segment, whatever order the documents’ fields come in', () => {
    const db = openDatabase(':memory:');
    const writer = writerOn(db);
    // Field ids are allocated in this order; the later documents list them the other way round.
    writer.applyAll([{ kind: 'upsert', entityType: 'dataset', urn: 'first', fields: { urn: 'first', a: 'x', b: 'y', c: 'z' } }]);
    writer.applyAll(Array.from({ length: 200 }, (_, i) => ({ kind: 'upsert' as const, entityType: 'dataset', urn: `d${i}`, fields: { c: `gamma ${i}`, b: `beta ${i}`, a: `alpha ${i}`, urn: `d${i}` } })));
    // FTS5 numbers a segment's pages from (segment id << 37); FTS5 may have merged the two segments already.
    const segments = db.prepare('SELECT count(DISTINCT id >> 37) FROM search_fts_data WHERE id >= 1 << 37').pluck().get() as number;
    expect(segments).toBeLessThanOrEqual(2);
    expect(matches(db, 'beta')).toHaveLength(200);
    db.close();
  });

  it('keeps no lower-cased whole values of a field no lookup reads, and still finds it by its words', () => {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const mappings = new Map([['dataset', new Map([
      ['description', { type: 'TEXT' as const, autocomplete: false, lookupTerms: false }],
      ['title', { type: 'TEXT' as const, autocomplete: false }],
    ])]]);
    const fields = new FieldRegistry(db, mappings);
    const writer = new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db, fields)));
    writer.applyAll([{ kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { urn: 'a', description: 'Daily Totals', title: 'Daily Totals' } }]);
    // Lookup terms are tokens (`value-tokens.ts`): the title's row has them, the description has none.
    const withTerms = db.prepare(`SELECT f.name FROM search_value_fts v JOIN search_fields f ON f.field_id = v.rowid % ${FIELD_SLOTS} ORDER BY f.name`).pluck().all();
    expect(withTerms).toEqual(['title']);
    expect(db.prepare('SELECT COUNT(*) FROM search_terms').pluck().get()).toBe(0);
    const values = db.prepare("SELECT value FROM search_values v JOIN search_fields f USING (field_id) WHERE f.name = 'description'").pluck().all();
    expect(values).toEqual(['Daily Totals']);
    expect(matches(db, 'totals')).toHaveLength(2);
    db.close();
  });

  it('deletes the lower-cased whole value an earlier version kept for a field no lookup reads, when the value changes', () => {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const writerWith = (lookupTerms: boolean) => {
      const fields = new FieldRegistry(db, new Map([['dataset', new Map([['description', { type: 'TEXT' as const, autocomplete: false, lookupTerms }]])]]));
      return new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db, fields)));
    };
    const terms = () => db.prepare('SELECT term FROM search_terms').pluck().all();
    // Allocated by an earlier version, the field keeps term rows.
    db.prepare("INSERT INTO search_fields (entity_type, name) VALUES ('dataset', 'description')").run();
    writerWith(true).applyAll([{ kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { urn: 'a', description: 'Daily Totals' } }]);
    expect(terms()).toEqual(['daily totals']);
    writerWith(false).applyAll([{ kind: 'upsert', entityType: 'dataset', urn: 'a', fields: { description: 'Weekly Totals' } }]);
    expect(terms()).toEqual([]);
    db.close();
  });
});

describe('DocumentWriter rows a write carries', () => {
  const mappings = new Map([
    [
      'dataset',
      new Map([
        ['name', { type: 'WORD_GRAM' as const, autocomplete: true, prefixLookups: true }],
        ['description', { type: 'TEXT' as const, autocomplete: false, lookupTerms: false }],
        ['owners', { type: 'URN' as const, autocomplete: false }],
        ['fieldPaths', { type: 'TEXT' as const, autocomplete: false, lookupTerms: false, manyValues: true }],
      ]),
    ],
  ]);
  const docs: SearchFields[] = [
    { urn: 'a', name: 'SampleKafkaDataset', description: 'Daily totals of orders', owners: ['urn:li:corpuser:jdoe'], fieldPaths: ['order_id', 'customer.[type=string].name'] },
    { urn: 'b', name: 'orders', fieldPaths: ['Order_ID', 'total'], owners: 'urn:li:corpGroup:finance', removed: false },
  ];
  /** The search file's rows after writing `written`, each write carrying the rows of its `analysed` document's fields when given. */
  function fileAfter(written: readonly SearchFields[], analysed?: readonly SearchFields[]): Record<string, unknown[]> {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const fields = new FieldRegistry(db, mappings);
    const writer = new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db, fields)));
    writer.applyAll(
      written.map((d, i) => ({ kind: 'upsert' as const, entityType: 'dataset', urn: d.urn as string, fields: d, ...(analysed ? { rows: rowsOfFields(mappings.get('dataset'), analysed[i]!) } : {}) })),
    );
    const tables = ['search_docs', 'search_fields', 'search_values', 'search_terms', 'search_fts_data', 'search_value_fts_data', `${acTable('dataset')}_data`];
    const rows = Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).raw().all()]));
    db.close();
    return rows;
  }

  it('writes what the writer’s own analysis of the fields writes', () => {
    const own = fileAfter(docs);
    expect(own.search_values.length).toBeGreaterThan(0);
    expect(own.search_terms.length).toBeGreaterThan(0);
    expect(own.search_value_fts_data.length).toBeGreaterThan(0);
    expect(fileAfter(docs, docs)).toEqual(own);
  });

  it('takes them as they are, without analysing the fields again', () => {
    const renamed = docs.map((d) => ({ ...d, name: 'Renamed Dataset', fieldPaths: ['renamed_column'], owners: 'urn:li:corpuser:Renamed' }));
    // Words, and values and terms spelt as tokens.
    const words = (file: Record<string, unknown[]>) => [file.search_fts_data, file[`${acTable('dataset')}_data`], file.search_value_fts_data];
    expect(words(fileAfter(docs, renamed))).toEqual(words(fileAfter(renamed)));
    expect(words(fileAfter(docs, renamed))).not.toEqual(words(fileAfter(docs)));
  });
});
