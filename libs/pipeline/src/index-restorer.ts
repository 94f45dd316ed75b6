/**
 * Restoring indexes from the store: latest aspect rows are re-emitted as RESTATE change logs, so the
 * projectors (wherever they run) rebuild search documents and edges the usual way. The change logs
 * are paced by the consumers' progress: a rebuild that flooded the log would have every write
 * refused (429) until the indexers had worked through the whole store. The pacing is the API's (its
 * backpressure admits writes); the rows are read and re-emitted by a `Restater`, where the store
 * and the log are (the embedded catalog's pipeline thread, or this process).
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

/** Rows re-emitted: how many went to the change log, how many the model does not know. */
export interface Restated {
  readonly sent: number;
  readonly ignored: number;
}

/** Reads latest rows of the store and re-emits them as RESTATE change logs. */
export interface Restater {
  /** Every latest row, known aspect or not. */
  count(): Promise<number>;
  /** The rows of one scan. */
  restate(scan: AspectScan): Promise<RestoreResult>;
  /** Starts a pass over every latest row, in (urn, aspect) order, read ahead of what is asked; answers its id. */
  beginPass(): Promise<number>;
  /** Re-emits up to `n` rows of the pass; `done` once it has none left (and is ended). */
  restateNext(pass: number, n: number): Promise<Restated & { readonly done: boolean }>;
  /** Ends a pass before its end (a rebuild that failed). */
  endPass(pass: number): Promise<void>;
}

export const FULL_RESTORE_BATCH = 1000;
/** Rows a full rebuild holds read ahead: about the room a consumer's default bound leaves it (see Backpressure.room). */
export const READ_AHEAD = 15_000;

/** A full pass's rows read ahead, and the reading that refills them. */
interface Pass {
  readonly pages: AsyncIterator<StoredAspect[]>;
  ahead: StoredAspect[];
  exhausted: boolean;
  reading?: Promise<void>;
}

/** The Restater over a store and the change log of the same place. */
export class StoreRestater implements Restater {
  private readonly passes = new Map<number, Pass>();
  private nextPass = 0;
  /** The entity type of the last URN restored: an entity's rows are read together. */
  private lastEntity: { readonly urn: string; readonly type: string } | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly store: AspectReads,
    private readonly changeLog: LogProducer<MetadataChangeLog>,
  ) {}

  async count(): Promise<number> {
    return this.store.countLatest({});
  }

  async restate(scan: AspectScan): Promise<RestoreResult> {
    const queried = Date.now();
    const rows = await this.store.scanLatest(scan);
    const sending = Date.now();
    const { sent, ignored } = await this.emit(rows);
    return { rowsMigrated: sent, ignored, timeSqlQueryMs: sending - queried, sendMessageMs: Date.now() - sending };
  }

  async beginPass(): Promise<number> {
    const id = this.nextPass++;
    const pass: Pass = { pages: this.store.latestInBatches(FULL_RESTORE_BATCH)[Symbol.asyncIterator](), ahead: [], exhausted: false };
    this.passes.set(id, pass);
    this.readAhead(pass);
    return id;
  }

  async restateNext(id: number, n: number): Promise<Restated & { done: boolean }> {
    const pass = this.passes.get(id);
    if (!pass) throw new Error(`no restore pass ${id}`);
    // No more than the reading holds ahead: a larger `n` would wait for rows it never reads.
    const wanted = Math.min(n, READ_AHEAD);
    while (pass.ahead.length < wanted && !pass.exhausted) await this.readAhead(pass);
    const rows = pass.ahead.slice(0, wanted);
    pass.ahead = pass.ahead.slice(rows.length);
    const done = pass.exhausted && pass.ahead.length === 0;
    if (done) this.passes.delete(id);
    const restated = await this.emit(rows);
    // While the indexer takes these, the next ones are read.
    if (!done) this.readAhead(pass);
    return { ...restated, done };
  }

  async endPass(id: number): Promise<void> {
    this.passes.delete(id);
  }

  /**
   * Reads pages until READ_AHEAD rows wait, yielding between pages: the indexer takes what was just
   * appended (its timers and replies wait otherwise), so the writer thread works while this reads.
   */
  private readAhead(pass: Pass): Promise<void> {
    if (pass.reading) return pass.reading;
    // Nothing to read: no reading is started, since one that ended before it was stored would stay
    // stored, resolved, and every later wait for rows would spin on it (it held the pipeline
    // thread of a 100k rebuild, docs/performance-log.md).
    if (pass.exhausted || pass.ahead.length >= READ_AHEAD) return Promise.resolve();
    const reading = (async () => {
      try {
        do {
          const page = await pass.pages.next();
          if (page.done) pass.exhausted = true;
          else pass.ahead = pass.ahead.concat(page.value);
          await new Promise((resolve) => setImmediate(resolve));
        } while (!pass.exhausted && pass.ahead.length < READ_AHEAD);
      } finally {
        pass.reading = undefined;
      }
    })();
    pass.reading = reading;
    return reading;
  }

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

  private async emit(rows: StoredAspect[]): Promise<Restated> {
    const logs = rows.map((r) => this.changeLogOf(r));
    const valid = logs.filter((l): l is MetadataChangeLog => l !== undefined);
    if (valid.length) await this.changeLog.append(valid.map((l) => ({ key: l.entityUrn ?? '', value: l })), { reproducible: true });
    return { sent: valid.length, ignored: rows.length - valid.length };
  }
}

export class IndexRestorer {
  constructor(
    private readonly restater: Restater,
    private readonly pacing: RestorePacing,
    /** The consumer group that reads the change log into the indexes. */
    private readonly indexerGroup: string,
  ) {}

  /** One batch of latest rows, in (urn, aspect) order from row `start`; admitted like a write. */
  async restore(args: RestoreArgs): Promise<RestoreResult> {
    await this.pacing.admit();
    return this.restater.restate({
      ...(args.urn ? { urn: args.urn } : {}),
      ...(args.aspect ? { aspect: args.aspect } : {}),
      ...(args.urnLike ? { urnLike: args.urnLike } : {}),
      start: args.start,
      limit: args.batchSize,
    });
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
   * meanwhile; the restater reads the rows ahead while it waits, so the room is filled in one
   * append the moment it opens (appended a page at a time, the indexer took the first page alone).
   */
  async restoreAll(onProgress: (p: RestoreProgress) => void): Promise<RestoreProgress> {
    const total = await this.restater.count();
    let restored = 0;
    onProgress({ total, restored });
    const pass = await this.restater.beginPass();
    try {
      for (;;) {
        const n = await this.pacing.room(this.indexerGroup, READ_AHEAD);
        const next = await this.restater.restateNext(pass, n);
        restored += next.sent;
        onProgress({ total, restored });
        if (next.done) return { total, restored };
      }
    } catch (err) {
      await this.restater.endPass(pass);
      throw err;
    }
  }
}
