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
