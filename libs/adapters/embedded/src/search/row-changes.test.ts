import { RowChanges } from './row-changes';

function visited(changes: RowChanges): [number, string, number, boolean][] {
  const out: [number, string, number, boolean][] = [];
  changes.forEachInKeyOrder((fieldId, text, docId, present) => out.push([fieldId, text, docId, present]));
  return out;
}

describe('RowChanges', () => {
  it('keeps the last change of a row: its net effect', () => {
    const changes = new RowChanges();
    changes.set(3, 'prod', 7, false);
    changes.set(3, 'prod', 7, true);
    changes.set(3, 'dev', 7, true);
    changes.set(3, 'dev', 7, false);
    expect(visited(changes)).toEqual([
      [3, 'dev', 7, false],
      [3, 'prod', 7, true],
    ]);
  });

  it('visits rows in key order: field ids as numbers, then texts, then document ids as numbers', () => {
    const changes = new RowChanges();
    for (const [fieldId, text, docId] of [
      [10, 'b', 2],
      [9, 'z', 1],
      [10, 'a', 100],
      [10, 'a', 20],
      [10, 'a', 3],
      [2, 'x', 5],
      [10, 'B', 1],
    ] as const) {
      changes.set(fieldId, text, docId, true);
    }
    expect(visited(changes).map(([f, t, d]) => `${f}/${t}/${d}`)).toEqual(['2/x/5', '9/z/1', '10/B/1', '10/a/3', '10/a/20', '10/a/100', '10/b/2']);
  });
});
