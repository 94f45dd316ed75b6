import { openDatabase } from '../database';
import { DocCatalog } from './doc-catalog';
import { createSearchTables } from './search-tables';

describe('DocCatalog URN order', () => {
  afterEach(() => jest.useRealTimers());

  function catalogWith(urns: string[]): DocCatalog {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const catalog = new DocCatalog(db);
    urns.forEach((urn, i) => catalog.put(i + 1, 'dataset', urn, false));
    return catalog;
  }

  it('ranks documents by URN once no document has been added for a while', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const catalog = catalogWith(['urn:li:dataset:c', 'urn:li:dataset:a', 'urn:li:dataset:b']);
    expect(catalog.urnOrder()).toBeUndefined();
    jest.setSystemTime(1_003_000);
    const order = catalog.urnOrder()!;
    expect([order[2], order[3], order[1]]).toEqual([0, 1, 2]);
  });

  it('drops the ranks when a document is added, not when one changes or goes', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const catalog = catalogWith(['urn:li:dataset:b', 'urn:li:dataset:a']);
    jest.setSystemTime(1_003_000);
    expect(catalog.urnOrder()).toBeDefined();
    catalog.put(1, 'dataset', 'urn:li:dataset:b', true);
    catalog.delete(2);
    expect(catalog.urnOrder()).toBeDefined();
    catalog.put(3, 'dataset', 'urn:li:dataset:0', false);
    expect(catalog.urnOrder()).toBeUndefined();
    jest.setSystemTime(1_006_000);
    const order = catalog.urnOrder()!;
    expect(order[3]).toBeLessThan(order[1]);
  });
});

describe('DocCatalog counted documents', () => {
  function catalog(): DocCatalog {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const out = new DocCatalog(db);
    for (let docId = 1; docId <= 6; docId++) out.put(docId, 'dataset', `urn:li:dataset:${docId}`, docId === 6);
    out.put(7, 'chart', 'urn:li:chart:7', false);
    out.put(8, 'dataset', 'urn:li:dataset:8', false);
    out.delete(8);
    return out;
  }

  it('counts over the documents themselves while they are half of their type or fewer', () => {
    expect(catalog().countedDocs('dataset', [1, 2, 3])).toEqual([1, 2, 3]);
  });

  it("counts over the type's other documents, removed ones included, once they are fewer", () => {
    expect(catalog().countedDocs('dataset', [1, 3, 4, 5])).toEqual({ allBut: [2, 6] });
  });

  it('counts over the documents of a type it has never seen', () => {
    expect(catalog().countedDocs('dashboard', [9])).toEqual([9]);
  });
});

describe('DocCatalog documents by type', () => {
  function catalog(): DocCatalog {
    const db = openDatabase(':memory:');
    createSearchTables(db);
    const out = new DocCatalog(db);
    [1, 2, 4].forEach((docId) => out.put(docId, 'dataset', `urn:li:dataset:${docId}`, false));
    out.put(3, 'chart', 'urn:li:chart:3', false);
    return out;
  }
  const grouped = (docs: number[]) => Object.fromEntries([...catalog().groupByType(Int32Array.from(docs))].map(([type, ids]) => [type, [...ids]]));

  it('groups documents of several types in their order, leaving out unknown ones', () => {
    expect(grouped([4, 3, 9, 1])).toEqual({ dataset: [4, 1], chart: [3] });
  });

  it('gives a query of one type its documents as they are, and no group for none', () => {
    expect(grouped([2, 4])).toEqual({ dataset: [2, 4] });
    expect(grouped([])).toEqual({});
  });
});
