/** The SearchIndex contract: documents keyed by (entity type, urn), fields merged per upsert. */
import type { SearchIndex } from '@cairn/ports';

export interface OpenedSearchIndex {
  /** An empty index. */
  readonly index: SearchIndex;
  close(): Promise<void>;
}

const DS1 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.one,PROD)';
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.two,PROD)';
const USER = 'urn:li:corpuser:jdoe';

export function describeSearchIndexContract(name: string, open: () => Promise<OpenedSearchIndex>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let opened: OpenedSearchIndex;
    let index: SearchIndex;

    beforeEach(async () => {
      opened = await open();
      index = opened.index;
    });
    afterEach(async () => {
      await opened.close();
    });

    it('creates a document on the first upsert', async () => {
      expect(await index.getDocument('dataset', DS1)).toBeUndefined();
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one', tags: ['a', 'b'], removed: false, rowCount: 3 });
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, name: 'one', tags: ['a', 'b'], removed: false, rowCount: 3 });
    });

    it('merges fields of later upserts, overwriting only the fields given', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one', description: 'first' });
      await index.upsertFields('dataset', DS1, { description: 'second', owners: ['urn:li:corpuser:a'] });
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, name: 'one', description: 'second', owners: ['urn:li:corpuser:a'] });
    });

    it('clears a field set to null', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one', description: 'd', hasDescription: true });
      await index.upsertFields('dataset', DS1, { description: null, hasDescription: null });
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, name: 'one' });
    });

    it('applies a write batch as the same writes one by one would, deletes between upserts included', async () => {
      await index.upsertFields('dataset', DS2, { urn: DS2, name: 'two', description: 'old' });
      const batch = index.batch?.() ?? index;
      await batch.upsertFields('dataset', DS1, { urn: DS1, name: 'one', description: 'first' });
      await batch.upsertFields('dataset', DS2, { description: null, owners: ['urn:li:corpuser:a'] });
      await batch.upsertFields('dataset', DS1, { description: 'second', tags: ['t'] });
      await batch.deleteDocument('dataset', DS1);
      await batch.upsertFields('dataset', DS1, { urn: DS1, name: 'again' });
      await batch.upsertFields('dataset', DS1, { tags: null, description: 'third' });
      if ('flush' in batch) await batch.flush();
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, name: 'again', description: 'third' });
      expect(await index.getDocument('dataset', DS2)).toEqual({ urn: DS2, name: 'two', owners: ['urn:li:corpuser:a'] });
    });

    it('keeps false, zero and empty-string values', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, removed: false, count: 0, text: '' });
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, removed: false, count: 0, text: '' });
    });

    it('keeps documents of different URNs and entity types apart', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one' });
      await index.upsertFields('dataset', DS2, { urn: DS2, name: 'two' });
      await index.upsertFields('corpuser', USER, { urn: USER, name: 'jdoe' });
      expect(await index.getDocument('dataset', DS2)).toEqual({ urn: DS2, name: 'two' });
      expect(await index.getDocument('corpuser', DS1)).toBeUndefined();
    });

    it('deletes a document', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one' });
      await index.upsertFields('dataset', DS2, { urn: DS2, name: 'two' });
      await index.deleteDocument('dataset', DS1);
      expect(await index.getDocument('dataset', DS1)).toBeUndefined();
      expect(await index.getDocument('dataset', DS2)).toEqual({ urn: DS2, name: 'two' });
      await index.deleteDocument('dataset', 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)');
      expect(await index.count()).toBe(1);
    });

    it('starts a new document after a delete', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'one', description: 'd' });
      await index.deleteDocument('dataset', DS1);
      await index.upsertFields('dataset', DS1, { urn: DS1, name: 'again' });
      expect(await index.getDocument('dataset', DS1)).toEqual({ urn: DS1, name: 'again' });
    });

    it('counts documents, in all or of one entity type', async () => {
      expect(await index.count()).toBe(0);
      await index.upsertFields('dataset', DS1, { urn: DS1 });
      await index.upsertFields('dataset', DS1, { name: 'one' });
      await index.upsertFields('dataset', DS2, { urn: DS2 });
      await index.upsertFields('corpuser', USER, { urn: USER });
      expect(await index.count()).toBe(3);
      expect(await index.count('dataset')).toBe(2);
      expect(await index.count('corpuser')).toBe(1);
      expect(await index.count('chart')).toBe(0);
    });

    it('clears every document', async () => {
      await index.upsertFields('dataset', DS1, { urn: DS1 });
      await index.upsertFields('corpuser', USER, { urn: USER });
      await index.clear();
      expect(await index.count()).toBe(0);
      expect(await index.getDocument('dataset', DS1)).toBeUndefined();
    });
  });
}
