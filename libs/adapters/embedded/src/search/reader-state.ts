/**
 * What readers keep in memory (the document catalog and doc values) follows the writer's committed
 * changes through this interface: applied in the writer's thread, or posted to reader threads.
 */
import type { DocCatalog } from './doc-catalog';
import type { DocValues } from './doc-values';
import type { FieldRegistry, NewField } from './search-tables';

/** What a committed write changes in memory. */
export type MemoryUpdate =
  | { readonly kind: 'put'; readonly docId: number; readonly entityType: string; readonly urn: string; readonly removed: boolean; readonly fields: [number, string[]][] }
  | { readonly kind: 'delete'; readonly docId: number };

/**
 * A commit's updates, or their JSON text as the writer thread sends them: a string crosses threads
 * as one copy where objects are serialized and rebuilt, and the thread that passes them on to the
 * reader threads (the one that serves and persists) never reads them.
 */
export type MemoryUpdates = readonly MemoryUpdate[] | string;

export interface ReaderState {
  /** After a commit: the fields it allocated and what it changed. */
  committed(fields: readonly NewField[], updates: MemoryUpdates): void;
  cleared(): void;
  /** A rebuild's deferred value rows are in the file now: what was loaded from it without them is read again. */
  rowsMerged(): void;
}

/**
 * Readers' memory in the thread that holds it: beside the writer (sharing its field registry, which
 * knows the new fields already) or in a reader thread (whose registry learns them).
 */
export class LocalReaderState implements ReaderState {
  constructor(
    private readonly fields: FieldRegistry,
    private readonly catalog: DocCatalog,
    private readonly docValues: DocValues,
  ) {}

  committed(fields: readonly NewField[], updates: MemoryUpdates): void {
    for (const field of fields) this.fields.learn(field);
    for (const update of typeof updates === 'string' ? (JSON.parse(updates) as MemoryUpdate[]) : updates) {
      if (update.kind === 'delete') {
        this.catalog.delete(update.docId);
        this.docValues.deleteDoc(update.docId);
      } else {
        this.catalog.put(update.docId, update.entityType, update.urn, update.removed);
        for (const [fieldId, values] of update.fields) this.docValues.update(fieldId, update.docId, values);
      }
    }
  }

  cleared(): void {
    // The emptied file may keep some fields' values differently (`relayFields`).
    this.fields.reload();
    this.catalog.clear();
    this.docValues.clear();
  }

  rowsMerged(): void {
    this.docValues.clear();
    this.catalog.invalidate();
  }
}
