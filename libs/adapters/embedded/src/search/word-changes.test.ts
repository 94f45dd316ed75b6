import { WordChanges } from './word-changes';

function written(changes: WordChanges): string[] {
  const out: string[] = [];
  changes.write(
    (rowid) => out.push(`-${rowid}`),
    (rowid, words) => out.push(`+${rowid} ${words}`),
  );
  return out;
}

describe('WordChanges', () => {
  it('writes the net effect of each row: a row added and removed again is not written', () => {
    const changes = new WordChanges();
    changes.add(5, 'new words');
    changes.remove(5);
    changes.remove(9);
    changes.add(9, 'replaced');
    changes.add(9, 'replaced again');
    changes.remove(12);
    expect(written(changes)).toEqual(['-9', '+9 replaced again', '-12']);
  });

  it('writes rows in rowid order, as numbers', () => {
    const changes = new WordChanges();
    for (const rowid of [131075, 131073, 65540, 9, 131074]) changes.add(rowid, `w${rowid}`);
    expect(written(changes).map((w) => w.split(' ')[0])).toEqual(['+9', '+65540', '+131073', '+131074', '+131075']);
  });
});
