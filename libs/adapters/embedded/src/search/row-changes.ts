/**
 * The value or term rows a transaction adds and removes, reduced to their net effect (the last
 * change of a row wins) and visited in the table's key order (field, text, document), so the
 * writes walk the B-tree once. Kept as maps by field, then text, then document: a rebuild's
 * transaction changes hundreds of thousands of rows, and sorting records on all three keys cost
 * three times as much as sorting each level's keys alone.
 */
export class RowChanges {
  private readonly byField = new Map<number, Map<string, Map<number, boolean>>>();

  set(fieldId: number, text: string, docId: number, present: boolean): void {
    let texts = this.byField.get(fieldId);
    if (!texts) this.byField.set(fieldId, (texts = new Map()));
    let docs = texts.get(text);
    if (!docs) texts.set(text, (docs = new Map()));
    docs.set(docId, present);
  }

  forEachInKeyOrder(visit: (fieldId: number, text: string, docId: number, present: boolean) => void): void {
    for (const fieldId of [...this.byField.keys()].sort(byNumber)) {
      const texts = this.byField.get(fieldId)!;
      // UTF-16 order, which is SQLite's order of the UTF-8 bytes except between characters above
      // U+FFFF and those from U+E000: there it only costs locality.
      for (const text of [...texts.keys()].sort()) {
        const docs = texts.get(text)!;
        for (const docId of docs.size === 1 ? docs.keys() : [...docs.keys()].sort(byNumber)) visit(fieldId, text, docId, docs.get(docId)!);
      }
    }
  }
}

function byNumber(a: number, b: number): number {
  return a - b;
}
