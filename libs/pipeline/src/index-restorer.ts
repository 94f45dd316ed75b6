/**
 * Restoring indexes from the store: latest aspect rows are re-emitted as RESTATE change logs, so the
 * projectors (wherever they run) rebuild search documents and edges the usual way. The change logs
 * are paced by the consumers' progress: a rebuild that flooded the log would have every write
 * refused (429) until the indexers had worked through the whole store.
 */
import { UrnSyntaxError, type Registry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import type { AspectReads, AspectScan, LogProducer, StoredAspect } from '@cairn/ports';
import type { RestorePacing } from './backpressure';
import { JSON_CONTENT } from './proposal-check';

export interface RestoreArgs {
  readonly urn?: string;
  readonly aspect?: string;
  readonly urnLike?: string;
  readonly start: number;
  readonly batchSize: number;
}

export interface RestoreResult {
  readonly rowsMigrated: number;
  /** Rows of entities or aspects the model does not know. */
  readonly ignored: number;
  readonly timeSqlQueryMs: number;
  readonly sendMessageMs: number;
}

export interface RestoreProgress {
  readonly total: number;
  readonly restored: number;
}

const FULL_RESTORE_BATCH = 1000;
/** Rows a full rebuild holds read ahead: about the room a consumer's default bound leaves it (see Backpressure.room). */
const READ_AHEAD = 15_000;

export class IndexRestorer {
  constructor(
    private readonly registry: Registry,
    private readonly store: AspectReads,
    private readonly changeLog: LogProducer<MetadataChangeLog>,
    private readonly pacing: RestorePacing,
    /** The consumer group that reads the change log into the indexes. */
    private readonly indexerGroup: string,
  ) {}

  /** The entity type of the last URN restored: an entity's rows are read together. */
  private lastEntity: { readonly urn: string; readonly type: string } | undefined;

  private entityTypeOf(urn: string): string {
    if (this.lastEntity?.urn !== urn) this.lastEntity = { urn, type: this.registry.parseEntityUrn(urn).entity.name };
    return this.lastEntity.type;
  }

  private changeLogOf(row: StoredAspect): MetadataChangeLog | undefined {
    let entityType: string;
    try {
      entityType = this.entityTypeOf(row.urn);
    } catch (err) {
      if (err instanceof UrnSyntaxError) return undefined;
      throw err;
    }
    const aspect = this.registry.entity(entityType)?.aspects.get(row.aspect);
    if (!aspect || aspect.kind === 'timeseries') return undefined;
    return {
      entityType,
      entityUrn: row.urn,
      changeType: 'RESTATE',
      aspectName: row.aspect,
      aspect: { value: row.metadata, contentType: JSON_CONTENT },
      ...(row.systemMetadata ? { systemMetadata: row.systemMetadata } : {}),
      created: { time: row.createdOn, actor: row.createdBy },
    };
  }

  private async emit(rows: StoredAspect[]): Promise<{ sent: number; ignored: number }> {
    const logs = rows.map((r) => this.changeLogOf(r));
    const valid = logs.filter((l): l is MetadataChangeLog => l !== undefined);
    if (valid.length) await this.changeLog.append(valid.map((l) => ({ key: l.entityUrn ?? '', value: l })), { reproducible: true });
    return { sent: valid.length, ignored: rows.length - valid.length };
  }

  /** One batch of latest rows, in (urn, aspect) order from row `start`; admitted like a write. */
  async restore(args: RestoreArgs): Promise<RestoreResult> {
    await this.pacing.admit();
    const scan: AspectScan = {
      ...(args.urn ? { urn: args.urn } : {}),
      ...(args.aspect ? { aspect: args.aspect } : {}),
      ...(args.urnLike ? { urnLike: args.urnLike } : {}),
      start: args.start,
      limit: args.batchSize,
    };
    const queried = Date.now();
    const rows = await this.store.scanLatest(scan);
    const sending = Date.now();
    const { sent, ignored } = await this.emit(rows);
    return { rowsMigrated: sent, ignored, timeSqlQueryMs: sending - queried, sendMessageMs: Date.now() - sending };
  }

  /**
   * A full rebuild's end: once the indexer has consumed what the rebuild appended, `work` (which
   * holds the indexer up), with writes judged meanwhile as during the rebuild.
   */
  async finish(work: () => Promise<void>): Promise<void> {
    await this.pacing.caughtUp(this.indexerGroup);
    await this.pacing.holdingUp(this.indexerGroup, work);
  }

  /**
   * Every latest row of every aspect the model knows, in one pass over the store, reporting progress
   * after each append. Each append waits for room in the consumers' backlog, so writes go on
   * meanwhile; the rows are read ahead while it waits, so the room is filled in one append the
   * moment it opens (appended a page at a time, the indexer took the first page alone).
   */
  async restoreAll(onProgress: (p: RestoreProgress) => void): Promise<RestoreProgress> {
    const total = await this.store.countLatest({});
    let restored = 0;
    onProgress({ total, restored });
    const pages = this.store.latestInBatches(FULL_RESTORE_BATCH)[Symbol.asyncIterator]();
    let ahead: StoredAspect[] = [];
    for (let exhausted = false; ; ) {
      while (!exhausted && ahead.length < READ_AHEAD) {
        const page = await pages.next();
        if (page.done) exhausted = true;
        else ahead = ahead.concat(page.value);
        // Between pages the indexer takes what was just appended (its timers and replies wait
        // otherwise): the writer thread works while this thread reads ahead, not after it.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (ahead.length === 0) return { total, restored };
      const n = await this.pacing.room(this.indexerGroup, ahead.length);
      restored += (await this.emit(ahead.slice(0, n))).sent;
      ahead = ahead.slice(n);
      onProgress({ total, restored });
    }
  }
}
