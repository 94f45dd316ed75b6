/**
 * The change logs' stored form in the catalog file: a change log with an aspect value is stored
 * without it (nor the previous value), since the aspect table beside it holds that value as the
 * aspect's latest row. The value is most of a change log's weight (a dataset's schema is kilobytes),
 * and writing it a second time into the same file cost a stringification and its pages in every
 * commit and checkpoint, though the search indexer, this topic's one consumer, takes the appended
 * object from memory. After a restart, or far behind, it reads the row back: the latest value, which
 * may be newer than the change log's, and the later change log that wrote it gives the same
 * document; an aspect since deleted is skipped, and so is its change log, as the DELETE's change
 * log that follows removes it. The indexer reads no previous value.
 */
import type { MetadataChangeLog } from '@cairn/events';
import type { StoredForm } from './sqlite-event-log';

const JSON_CONTENT = 'application/json';

/** A stored change log: without its previous value, and without its aspect value when that is the aspect's latest row. */
type StoredChangeLog = Omit<MetadataChangeLog, 'previousAspectValue'> & { aspectInStore?: true };

/** `latestMetadata`: the aspect's latest value as the aspect table holds it, if any. */
export function changeLogsBesideAspects(latestMetadata: (urn: string, aspect: string) => string | undefined): StoredForm<MetadataChangeLog> {
  return {
    toStored(mcl: MetadataChangeLog): StoredChangeLog {
      // One copy, marked in place: every change log of the ingest passes here.
      const { previousAspectValue: _previous, aspect, ...stored }: StoredChangeLog & Pick<MetadataChangeLog, 'previousAspectValue'> = mcl;
      if (!aspect) return stored;
      if (mcl.changeType === 'DELETE' || mcl.entityUrn === undefined || mcl.aspectName === undefined) return { aspect, ...stored };
      stored.aspectInStore = true;
      return stored;
    },
    fromStored(stored: unknown): MetadataChangeLog | undefined {
      const { aspectInStore, ...mcl } = stored as StoredChangeLog;
      if (!aspectInStore) return mcl;
      const value = latestMetadata(mcl.entityUrn!, mcl.aspectName!);
      return value === undefined ? undefined : { aspect: { value, contentType: JSON_CONTENT }, ...mcl };
    },
    heldChars(mcl: MetadataChangeLog): number {
      return (mcl.aspect?.value.length ?? 0) + (mcl.previousAspectValue?.value.length ?? 0);
    },
  };
}
