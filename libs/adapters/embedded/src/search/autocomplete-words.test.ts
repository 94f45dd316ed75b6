import type { SearchMappings } from '@cairn/ports';
import { openDatabase } from '../database';
import { SqliteSearchIndex } from '../sqlite-search-index';

const nameField = new Map([['name', { type: 'WORD_GRAM' as const, autocomplete: true }]]);
const mappings: SearchMappings = new Map([
  ['dataset', nameField],
  ['chart', nameField],
  ['bad-type', nameField],
]);
const suggest = (index: SqliteSearchIndex, entityType: string, text: string) =>
  index.autocomplete({ entityTypes: [entityType], filter: [], includeRemoved: false, text, fields: [{ field: 'name', boost: 1 }], limit: 10 });

describe('autocomplete word indexes, one per entity type', () => {
  it('are made from the stored documents when an index of the earlier layout (one for every type) is opened', async () => {
    const db = openDatabase(':memory:');
    const first = new SqliteSearchIndex(db, mappings);
    await first.upsertFields('dataset', 'urn:li:dataset:a', { urn: 'urn:li:dataset:a', name: 'daily revenue report' });
    await first.close();
    db.exec("DROP TABLE search_ac_fts_dataset; CREATE VIRTUAL TABLE search_ac_fts USING fts5(words, content='', prefix='1 2 3 4');");
    const index = new SqliteSearchIndex(db, mappings);
    expect((await suggest(index, 'dataset', 'reven')).urns).toEqual(['urn:li:dataset:a']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'search_ac_fts'").get()).toBeUndefined();
    await index.close();
  });

  it('are made from the stored documents in rowid order, one segment, whatever order their fields come in', async () => {
    const twoFields = new Map([
      ['name', { type: 'WORD_GRAM' as const, autocomplete: true }],
      ['title', { type: 'WORD_GRAM' as const, autocomplete: true }],
    ]);
    const db = openDatabase(':memory:');
    const first = new SqliteSearchIndex(db, new Map([['dataset', twoFields]]));
    // The fields get their ids in this order; the documents list them the other way round.
    await first.upsertFields('dataset', 'urn:li:dataset:first', { urn: 'urn:li:dataset:first', name: 'x', title: 'y' });
    const batch = first.batch();
    for (let i = 0; i < 200; i++) await batch.upsertFields('dataset', `urn:li:dataset:d${i}`, { title: `beta ${i}`, name: `alpha ${i}`, urn: `urn:li:dataset:d${i}` });
    await batch.flush();
    await first.close();
    db.exec("DROP TABLE search_ac_fts_dataset; CREATE VIRTUAL TABLE search_ac_fts USING fts5(words, content='', prefix='1 2 3 4');");
    const index = new SqliteSearchIndex(db, new Map([['dataset', twoFields]]));
    // FTS5 numbers a segment's pages from (segment id << 37); it may have merged two segments already.
    expect(db.prepare('SELECT count(DISTINCT id >> 37) FROM search_ac_fts_dataset_data WHERE id >= 1 << 37').pluck().get()).toBeLessThanOrEqual(2);
    expect((await suggest(index, 'dataset', 'alph')).urns).toHaveLength(10);
    await index.close();
  });

  it('survive a transaction that created one and then failed', async () => {
    const index = new SqliteSearchIndex(openDatabase(':memory:'), mappings);
    const batch = index.batch();
    await batch.upsertFields('chart', 'urn:li:chart:a', { urn: 'urn:li:chart:a', name: 'weekly sales' });
    // A value no document can hold fails the transaction after the chart's index was created.
    await batch.upsertFields('dataset', 'urn:li:dataset:a', { urn: 'urn:li:dataset:a', name: 'x', size: 1n });
    await expect(batch.flush()).rejects.toThrow(/BigInt/);
    await index.upsertFields('chart', 'urn:li:chart:a', { urn: 'urn:li:chart:a', name: 'weekly sales' });
    expect((await suggest(index, 'chart', 'sal')).urns).toEqual(['urn:li:chart:a']);
    await index.close();
  });

  it('exist for entity types whose names are no identifiers', async () => {
    const index = new SqliteSearchIndex(openDatabase(':memory:'), mappings);
    await index.upsertFields('bad-type', 'urn:li:bad-type:a', { urn: 'urn:li:bad-type:a', name: 'dashed name' });
    expect((await suggest(index, 'bad-type', 'nam')).urns).toEqual(['urn:li:bad-type:a']);
    await index.clear();
    expect((await suggest(index, 'bad-type', 'nam')).urns).toEqual([]);
    await index.close();
  });
});
