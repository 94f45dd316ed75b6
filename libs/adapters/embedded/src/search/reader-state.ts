/**
 * What readers keep in memory (the document catalog and doc values) follows the writer's committed
 * changes through this interface: applied in the writer's thread, or posted to reader threads.
 */
import type { DocCatalog } from './doc-catalog';
import type { DocValues } from './doc-values';
import type { NewField } from './search-tables';

/** What a committed write changes in memory. */
export type MemoryUpdate =
  | { readonly kind: 'put'; readonly docId: number; readonly entityType: string; readonly urn: string; readonly removed: boolean; readonly fields: [number, string[]][] }
  | { readonly kind: 'delete'; readonly docId: number };

export interface ReaderState {
  /** After a commit: the fields it allocated and what it changed. */
  committed(fields: readonly NewField[], updates: readonly MemoryUpdate[]): void;
  cleared(): void;
}

export function applyUpdates(catalog: DocCatalog, docValues: DocValues, updates: readonly MemoryUpdate[]): void {
  for (const update of updates) {
    if (update.kind === 'delete') {
      catalog.delete(update.docId);
      docValues.deleteDoc(update.docId);
    } else {
      catalog.put(update.docId, update.entityType, update.urn, update.removed);
      for (const [fieldId, values] of update.fields) docValues.update(fieldId, update.docId, values);
    }
  }
}

/** Readers in the writer's thread, sharing its field registry. */
export class LocalReaderState implements ReaderState {
  constructor(
    private readonly catalog: DocCatalog,
    private readonly docValues: DocValues,
  ) {}

  committed(_fields: readonly NewField[], updates: readonly MemoryUpdate[]): void {
    applyUpdates(this.catalog, this.docValues, updates);
  }

  cleared(): void {
    this.catalog.clear();
    this.docValues.clear();
  }
}
