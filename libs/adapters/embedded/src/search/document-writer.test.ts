import type { SearchFields } from '@cairn/ports';
import { openDatabase } from '../database';
import { DocCatalog } from './doc-catalog';
import { DocValues } from './doc-values';
import { DocumentWriter } from './document-writer';
import { LocalReaderState } from './reader-state';
import { createSearchTables, FieldRegistry } from './search-tables';

describe('DocumentWriter', () => {
  it('leaves no field of a failed transaction in the registry, so no two fields share an id', () => {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const fields = new FieldRegistry(db, new Map());
    const writer = new DocumentWriter(db, fields, new LocalReaderState(fields, new DocCatalog(db), new DocValues(db)));
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
