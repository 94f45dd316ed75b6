/** EventLog on SQLite: one table of records per topic, committed offsets per consumer group. */
import { EventEmitter } from 'node:events';
import type { AppendOptions, BatchDelivery, BatchHandler, Consumer, ConsumeOptions, ConsumerProgress, EventLog, LogRecord, NewRecord } from '@cairn/ports';
import type { EmbeddedDb } from './database';

const POLL_MS = 1000;
const RETRY_MS = 500;
const TRIM_EVERY_COMMITS = 200;
/** Batches a consumer may have taken and not yet durable before it waits for the oldest. */
const MAX_TAKEN = 2;
/** Bound of the appended values kept for this process's consumers (their JSON's length). */
const RECENT_MAX_CHARS = 8_000_000;
/** The stored value of a reproducible record, whose value is kept in memory only (no JSON is empty). */
const UNSTORED = '';

/** The table of one topic's records: its rows are appended in seq order, so it is keyed by rowid. */
export function topicTable(topic: string): string {
  return `"log_${topic.replaceAll('"', '""')}"`;
}

/**
 * A topic's table, and the table shared by every topic before each had its own: its rows move over.
 * Records are appended at the end of their topic's table and its pages fill one after the other; in
 * the shared table, keyed by (topic, seq) WITHOUT ROWID, every topic's end was a page in the middle
 * of one B-tree and any record over about a kilobyte (a schema, a change log with the previous
 * value) took overflow pages of its own, so an append rewrote several partly empty pages.
 */
export function migrateEventLog(db: EmbeddedDb, topic: string): void {
  const table = topicTable(topic);
  db.exec(`
    CREATE TABLE IF NOT EXISTS ${table} (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, value TEXT NOT NULL, ts INTEGER NOT NULL, headers TEXT);
    CREATE TABLE IF NOT EXISTS log_offsets (
      topic TEXT NOT NULL, grp TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (topic, grp)) WITHOUT ROWID;
  `);
  const shared = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'log_records'").get();
  if (!shared) return;
  db.transaction(() => {
    db.prepare(`INSERT INTO ${table} (seq, key, value, ts, headers) SELECT seq, key, value, ts, headers FROM log_records WHERE topic = ?`).run(topic);
    db.prepare('DELETE FROM log_records WHERE topic = ?').run(topic);
    if (!db.prepare('SELECT 1 FROM log_records LIMIT 1').get()) db.exec('DROP TABLE log_records');
  })();
}

/**
 * How a topic stores its values when not as they are: the part of a value found elsewhere in the
 * same file is left out of its row and read back from there. A consumer here gets the appended
 * object itself while it is kept in memory, so only a consumer after a restart, or one far behind,
 * reads a value back.
 */
export interface StoredForm<T> {
  /** What the row holds for `value` (written as JSON). */
  toStored(value: T): unknown;
  /** The value again from what its row holds; undefined when it can no longer be had, and the record is skipped. */
  fromStored(stored: unknown): T | undefined;
  /** The characters `value` holds beyond its stored form, counted against the bound of values kept in memory. */
  heldChars(value: T): number;
}

interface Pending<T> {
  readonly records: ReadonlyArray<NewRecord<T>>;
  readonly reproducible: boolean;
  resolve(ids: string[]): void;
  reject(err: unknown): void;
}

/** One topic's part of a flush. */
interface TopicFlush {
  /** Inside the flush's transaction. */
  write(): void;
  /**
   * Inside the transaction, once every topic's part is written: hands the part's records to the
   * consumers that take them there (`inline`); undefined when none does.
   */
  handOver(): Promise<void> | undefined;
  committed(): void;
  failed(err: unknown): void;
}

const INLINE: BatchDelivery = { inline: true };

/**
 * The flush of every topic's appends on one file, once an event-loop turn, in one transaction: the
 * persister's change logs of a batch, its time-series change logs and failures, and the proposals
 * requests appended in the same turn, are one commit instead of one a topic. A consumer that takes
 * an append's records inside its transaction (`inline`) appends what follows from them into the
 * same transaction, each such append in a savepoint of its own.
 */
class FileFlusher {
  private readonly due = new Set<() => TopicFlush>();
  private scheduled = false;
  /** The parts of the transaction open now, while it hands records over. */
  private open: TopicFlush[] | undefined;
  /** The flush running now, if it is handing records over. */
  private running: Promise<void> | undefined;
  private readonly stmts;

  constructor(private readonly db: EmbeddedDb) {
    this.stmts = {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      // Prepared once: a flush opens and releases both about once an append.
      append: savepointStatements(db, 'append'),
      handover: savepointStatements(db, 'handover'),
    };
  }

  /** `take` runs at the next flush (once, however often it is scheduled before), or now when a flush is handing records over. */
  schedule(take: () => TopicFlush): void {
    if (this.open) {
      this.joinOpen(take());
      return;
    }
    this.due.add(take);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
  }

  /** A part written into the open transaction, all or nothing. */
  private joinOpen(part: TopicFlush): void {
    const savepoint = this.stmts.append;
    savepoint.open.run();
    try {
      part.write();
      savepoint.release.run();
    } catch (err) {
      savepoint.undo();
      part.failed(err);
      return;
    }
    this.open!.push(part);
  }

  /**
   * Runs `work` (a consumer's handling of records handed over) in a savepoint: when it throws, what
   * it wrote is undone and the appends it made fail.
   */
  async within(work: () => Promise<void>): Promise<void> {
    const open = this.open!;
    const mark = open.length;
    const savepoint = this.stmts.handover;
    savepoint.open.run();
    try {
      await work();
      savepoint.release.run();
    } catch (err) {
      savepoint.undo();
      for (const part of open.splice(mark).reverse()) part.failed(err);
      throw err;
    }
  }

  private async flush(): Promise<void> {
    // Inside another unit's open transaction the appends would be acknowledged before they are durable.
    if (this.db.inTransaction) {
      setImmediate(() => void this.flush());
      return;
    }
    this.scheduled = false;
    const running = this.commitDue();
    this.running = running;
    await running;
    if (this.running === running) this.running = undefined;
  }

  /** Whether a flush's transaction is open: its rows are this connection's to see but not yet committed. */
  get handingOver(): boolean {
    return this.open !== undefined;
  }

  /** Resolves once no flush is handing records over (a consumer stopping waits for the one it is in). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async commitDue(): Promise<void> {
    const parts = [...this.due].map((take) => take());
    this.due.clear();
    let failure: { readonly err: unknown } | undefined;
    this.stmts.begin.run();
    try {
      for (const part of parts) part.write();
      this.open = parts;
      // Handling one part's records may append more parts, which are handed over in turn.
      for (let i = 0; i < parts.length; i++) {
        const handing = parts[i]!.handOver();
        if (handing) await handing;
      }
      this.stmts.commit.run();
    } catch (err) {
      failure = { err };
      if (this.db.inTransaction) this.stmts.rollback.run();
    } finally {
      this.open = undefined;
    }
    // In reverse on failure: each part gives its topic's sequence back to where the part began.
    if (failure) for (const part of parts.reverse()) part.failed(failure.err);
    else for (const part of parts) part.committed();
  }
}

function savepointStatements(db: EmbeddedDb, name: string) {
  const open = db.prepare(`SAVEPOINT ${name}`);
  const release = db.prepare(`RELEASE ${name}`);
  const rollbackTo = db.prepare(`ROLLBACK TO ${name}`);
  return {
    open,
    release,
    /** Undoes what was written since the savepoint opened, and closes it. */
    undo: () => {
      rollbackTo.run();
      release.run();
    },
  };
}

const flushers = new WeakMap<EmbeddedDb, FileFlusher>();
function flusherOf(db: EmbeddedDb): FileFlusher {
  let flusher = flushers.get(db);
  if (!flusher) flushers.set(db, (flusher = new FileFlusher(db)));
  return flusher;
}

/** A consumer that takes each append's records inside its transaction while it has caught up (`inline`). */
interface InlineConsumer<T> {
  readonly handler: BatchHandler<T>;
  readonly maxBatch: number;
  /** Its position: committed, or taken in the transaction open now. */
  position: number;
  /** Back to reading as any consumer does, from its committed position. */
  leave(): void;
}

export class SqliteEventLog<T> implements EventLog<T> {
  /** The seq the next record written gets. */
  private nextSeq: number;
  /** The last seq committed: what consumers may read (a transaction open on this connection shows it rows beyond). */
  private endSeq: number;
  private pending: Pending<T>[] = [];
  private readonly flusher: FileFlusher;
  private readonly appended = new EventEmitter();
  private commitsSinceTrim = 0;
  private readonly stmts;
  /**
   * Records appended here that this process's consumers have not all read, by seq: a consumer
   * takes them from here, neither reading the table (whose rows hold each value's JSON before
   * the columns after it) nor parsing the JSON again. Kept only while some consumer reads this
   * topic here, up to RECENT_MAX_CHARS; older ones are read from the table.
   */
  private readonly recent = new Map<number, { readonly record: LogRecord<T>; readonly chars: number }>();
  private recentChars = 0;
  /**
   * Reproducible records (a rebuild's), their values stored as an empty value and kept here, by seq,
   * until every consumer here has committed them: a 100k rebuild wrote a gigabyte of change logs
   * into the table only to delete it again. Bounded by the consumers' backlog, which the rebuild
   * paces itself by; a restart loses them, and consumers then skip them.
   */
  private readonly unstored = new Map<number, LogRecord<T>>();
  /** The committed seq of each group consuming in this process. */
  private readonly consumers = new Map<string, number>();
  /** The groups taking each append's records inside its transaction, by group. */
  private readonly inline = new Map<string, InlineConsumer<T>>();

  constructor(
    db: EmbeddedDb,
    readonly topic: string,
    private readonly form?: StoredForm<T>,
  ) {
    migrateEventLog(db, topic);
    this.flusher = flusherOf(db);
    const table = topicTable(topic);
    this.appended.setMaxListeners(0);
    this.stmts = {
      insert: db.prepare(`INSERT INTO ${table} (seq, key, value, ts, headers) VALUES (?, ?, ?, ?, ?)`),
      read: db.prepare(`SELECT seq, key, value, ts, headers FROM ${table} WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?`),
      offset: db.prepare('SELECT seq FROM log_offsets WHERE topic = ? AND grp = ?'),
      commit: db.prepare('INSERT INTO log_offsets (topic, grp, seq) VALUES (?, ?, ?) ON CONFLICT (topic, grp) DO UPDATE SET seq = excluded.seq'),
      minOffset: db.prepare('SELECT MIN(seq) AS seq FROM log_offsets WHERE topic = ?'),
      trim: db.prepare(`DELETE FROM ${table} WHERE seq <= ?`),
      storeValue: db.prepare(`UPDATE ${table} SET value = ? WHERE seq = ?`),
      groups: db.prepare('SELECT grp FROM log_offsets WHERE topic = ?').pluck(),
    };
    const row = db.prepare(`SELECT MAX(seq) AS seq FROM ${table}`).get() as { seq: number | null };
    const committed = db.prepare('SELECT MAX(seq) AS seq FROM log_offsets WHERE topic = ?').get(topic) as { seq: number | null };
    this.endSeq = Math.max(row.seq ?? 0, committed.seq ?? 0);
    this.nextSeq = this.endSeq + 1;
  }

  /** Appends of one event-loop turn, to every topic of the file, share one transaction (group commit). */
  append(records: ReadonlyArray<NewRecord<T>>, options: AppendOptions = {}): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ records, reproducible: options.reproducible === true, resolve, reject });
      this.flusher.schedule(this.takePending);
    });
  }

  /** The appends waiting for the flush that runs now: written inside its transaction, settled after it. */
  private readonly takePending = (): TopicFlush => {
    const batch = this.pending;
    this.pending = [];
    const now = Date.now();
    /** The seqs the part wrote, once it has. */
    let range: { readonly start: number; readonly end: number } | undefined;
    /** Its records in seq order, for consumers here: every one kept, or handed over. */
    const records: LogRecord<T>[] = [];
    const chars: number[] = [];
    /** The positions the inline consumers took, by group: theirs once the transaction commits. */
    const taken = new Map<string, number>();
    /** Every group with a position, when each is an inline consumer about to take this part: its rows are then written without values. */
    let takenInline: readonly string[] | undefined;
    let ids: string[][] = [];
    /** The values of rows written without them, written in after all where some group did not take the part. */
    const storeValues = () => {
      if (!takenInline || takenInline.every((group) => taken.get(group) === range!.end)) return;
      records.forEach((record, i) => {
        const json = this.storedJson(record.value);
        this.stmts.storeValue.run(json, range!.start + i);
        chars[i] = this.keptChars(json, record.value);
      });
    };
    return {
      write: () => {
        const start = this.nextSeq;
        const reproducible = batch.some((p) => p.reproducible);
        const everyGroupHere = reproducible && this.everyGroupConsumesHere();
        takenInline = reproducible ? undefined : this.takenInlineFrom(start);
        const here = this.consumers.size > 0;
        let seq = start;
        ids = batch.map((p) =>
          p.records.map((r) => {
            const headers = r.headers ? JSON.stringify(r.headers) : null;
            const id = `0:${seq}`;
            const unstored = p.reproducible && everyGroupHere;
            const json = unstored || takenInline ? UNSTORED : this.storedJson(r.value);
            this.stmts.insert.run(seq, r.key, json, now, headers);
            if (here) {
              records.push({ id, key: r.key, value: r.value, timestamp: now, headers: r.headers ?? {} });
              // A reproducible value is kept apart, outside the bound of kept values (see `unstored`).
              chars.push(unstored ? -1 : this.keptChars(json, r.value));
            }
            seq++;
            return id;
          }),
        );
        this.nextSeq = seq;
        range = { start, end: seq - 1 };
      },
      handOver: () => {
        if (!range) return undefined;
        if (this.inline.size === 0 || records.length === 0) return void storeValues();
        return this.handOver(records, range.start, taken).then(storeValues);
      },
      committed: () => {
        if (range) this.endSeq = Math.max(this.endSeq, range.end);
        // A consumer that stopped meanwhile keeps its position in the file only.
        for (const [group, through] of taken) if (this.consumers.has(group)) this.consumers.set(group, through);
        const consumedHere = taken.size > 0 ? Math.min(...this.consumers.values()) : 0;
        records.forEach((record, i) => {
          const seq = range!.start + i;
          if (seq <= consumedHere) return;
          if (chars[i]! < 0) this.unstored.set(seq, record);
          else this.keepRecent(seq, record, chars[i]!);
        });
        // An inline consumer that did not take these records reads them as any consumer does.
        for (const consumer of [...this.inline.values()]) if (consumer.position < this.endSeq) consumer.leave();
        batch.forEach((p, i) => p.resolve(ids[i]));
        this.appended.emit('data');
      },
      failed: (err) => {
        // Whatever this part wrote is undone, and so is every part of the topic written after it.
        if (range) this.nextSeq = Math.min(this.nextSeq, range.start);
        for (const group of taken.keys()) this.inline.get(group)?.leave();
        batch.forEach((p) => p.reject(err));
      },
    };
  };

  /**
   * Hands records just written (seqs from `first` on) to the inline consumers whose position they
   * follow, in batches of their size, each handled in a savepoint with the consumer's position
   * written beside what it wrote. A consumer that is elsewhere, or whose handler throws, goes back
   * to reading them as any consumer does.
   */
  private async handOver(records: readonly LogRecord<T>[], first: number, taken: Map<string, number>): Promise<void> {
    for (const [group, consumer] of [...this.inline]) {
      if (consumer.position !== first - 1) {
        consumer.leave();
        continue;
      }
      try {
        for (let i = 0; i < records.length; i += consumer.maxBatch) {
          const batch = records.slice(i, i + consumer.maxBatch);
          const through = consumer.position + batch.length;
          await this.flusher.within(async () => {
            const answer = await consumer.handler(batch, INLINE);
            // Its appends are this transaction's: durable with it, or failed with it (and the consumer then left).
            answer?.durable.catch(() => undefined);
            this.stmts.commit.run(this.topic, group, through);
          });
          consumer.position = through;
          taken.set(group, through);
          if (++this.commitsSinceTrim >= TRIM_EVERY_COMMITS) this.trim();
        }
      } catch (err) {
        process.emitWarning(`consumer ${group} on ${this.topic} failed inside an append, reading it again: ${(err as Error).message}`);
        consumer.leave();
      }
    }
  }

  private keepRecent(seq: number, record: LogRecord<T>, chars: number): void {
    this.recent.set(seq, { record, chars });
    this.recentChars += chars;
    for (const [oldest, kept] of this.recent) {
      if (this.recentChars <= RECENT_MAX_CHARS) break;
      this.recent.delete(oldest);
      this.recentChars -= kept.chars;
    }
  }

  /**
   * Every group with a position on the topic, when each one is an inline consumer here whose
   * position is just before `start`: the records from `start` on are then taken inside their
   * transaction by every group that will ever read them, so their rows need no values (a 4% faster
   * 10k ingest in three alternating pairs, the log holding a proposal's value no more beside the
   * aspect row). A group that starts reading the topic later skips such records, as it skips a
   * rebuild's.
   */
  private takenInlineFrom(start: number): readonly string[] | undefined {
    if (this.inline.size === 0) return undefined;
    const groups = this.stmts.groups.all(this.topic) as string[];
    return groups.length > 0 && groups.every((group) => this.inline.get(group)?.position === start - 1) ? groups : undefined;
  }

  /** A record's value as its row holds it. */
  private storedJson(value: T): string {
    return JSON.stringify(this.form ? this.form.toStored(value) : value);
  }

  /** What a kept record counts toward RECENT_MAX_CHARS: its row's JSON and what its form holds beside it. */
  private keptChars(json: string, value: T): number {
    return json.length + (this.form?.heldChars(value) ?? 0);
  }

  /** Whether every group with a position on this topic consumes in this process (and one does). */
  private everyGroupConsumesHere(): boolean {
    if (this.consumers.size === 0) return false;
    return (this.stmts.groups.all(this.topic) as string[]).every((g) => this.consumers.has(g));
  }

  /** Forgets the kept values every consumer here has committed. */
  private forgetRead(): void {
    const through = Math.min(...this.consumers.values());
    for (const seq of this.unstored.keys()) {
      if (seq > through) break;
      this.unstored.delete(seq);
    }
    for (const [seq, kept] of this.recent) {
      if (seq > through) break;
      this.recent.delete(seq);
      this.recentChars -= kept.chars;
    }
  }

  consume(group: string, handler: BatchHandler<T>, options: ConsumeOptions = {}): Consumer {
    const maxBatch = options.maxBatch ?? 500;
    let stopped = false;
    let wake: (() => void) | undefined;
    const onData = () => wake?.();
    this.appended.on('data', onData);
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    /** Parks the loop while the consumer takes appends inline, from `position`; resolves once it leaves. */
    const inlineFrom = (position: number) =>
      new Promise<void>((resolve) => {
        const leave = () => {
          if (this.inline.get(group) !== consumer) return;
          this.inline.delete(group);
          resolve();
        };
        const consumer: InlineConsumer<T> = { handler, maxBatch, position, leave };
        this.inline.set(group, consumer);
      });

    if (options.fromLatest && this.stmts.offset.get(this.topic, group) === undefined) {
      this.stmts.commit.run(this.topic, group, this.endSeq);
    }
    this.consumers.set(group, this.committedSeq(group));
    /** The records after `after`, and the seq read through (a skipped record's included). */
    const read = (after: number): { records: LogRecord<T>[]; through: number } => {
      const kept = this.keptAfter(after, maxBatch);
      if (kept.length > 0) return { records: kept, through: after + kept.length };
      // Rows another instance of the topic committed are read too; a flush's own, only once committed.
      const through = this.flusher.handingOver ? this.endSeq : Number.MAX_SAFE_INTEGER;
      const rows = this.stmts.read.all(after, through, maxBatch) as { seq: number; key: string; value: string; ts: number; headers: string | null }[];
      const records: LogRecord<T>[] = [];
      for (const r of rows) {
        const value = this.valueOf(r.seq, r.value);
        // An unstored value lost with the process that appended it: skipped.
        if (value !== undefined) records.push({ id: `0:${r.seq}`, key: r.key, value, timestamp: r.ts, headers: r.headers ? JSON.parse(r.headers) : {} });
      }
      return { records, through: rows.length > 0 ? rows[rows.length - 1].seq : after };
    };
    const commit = (through: number) => {
      this.stmts.commit.run(this.topic, group, through);
      this.consumers.set(group, through);
      this.forgetRead();
      if (++this.commitsSinceTrim >= TRIM_EVERY_COMMITS) this.trim();
    };
    const failed = (err: unknown) => {
      process.emitWarning(`consumer ${group} on ${this.topic} failed, retrying: ${(err as Error).message}`);
      return false;
    };
    const loop = async () => {
      // Batches taken and not yet durable, oldest first: positions are committed in this order, and
      // a failure delivers again from the last committed one.
      const taken: { through: number; durable: Promise<boolean>; outcome?: boolean }[] = [];
      let readAfter = this.committedSeq(group);
      const commitDurable = () => {
        while (taken[0]?.outcome === true) commit(taken.shift()!.through);
      };
      /** Waits for the oldest batch taken; false when it failed (the rest are then waited out and dropped). */
      const settleOldest = async (): Promise<boolean> => {
        const oldest = taken.shift()!;
        if (await oldest.durable) {
          commit(oldest.through);
          return true;
        }
        await Promise.all(taken.splice(0).map((t) => t.durable));
        return false;
      };
      const settleAll = async () => {
        while (taken.length > 0 && (await settleOldest()));
      };
      const retry = async () => {
        readAfter = this.committedSeq(group);
        await sleep(RETRY_MS);
      };
      while (!stopped) {
        commitDurable();
        // While batches become durable only a full one is taken: fewer records (a live write's
        // between a rebuild's) wait to go with what follows them rather than be a commit of their
        // own. The oldest batch is committed once durable, unless more records come first. Counted
        // from the committed end, not read: every append wakes this wait.
        if (taken.length > 0 && this.endSeq - readAfter < maxBatch) {
          const durable = await Promise.race([taken[0].durable.then(() => true), sleep(POLL_MS).then(() => false)]);
          wake?.();
          if (durable && !(await settleOldest())) await retry();
          continue;
        }
        let { records, through } = read(readAfter);
        if (through === readAfter) {
          if (options.inline && taken.length === 0) {
            // Caught up, nothing in flight: appends are taken inside their transactions until one fails here.
            await inlineFrom(readAfter);
            readAfter = this.committedSeq(group);
          } else await sleep(POLL_MS);
          continue;
        }
        if (through - readAfter < maxBatch && options.lingerMs) {
          await new Promise((r) => setTimeout(r, options.lingerMs));
          ({ records, through } = read(readAfter));
        }
        // Whether the batch became durable, known from the start (a rejection is held here while
        // earlier batches settle, not left unhandled).
        let durable: Promise<boolean> | undefined;
        try {
          if (records.length > 0) durable = (await handler(records))?.durable.then(() => true, failed);
        } catch (err) {
          failed(err);
          await settleAll();
          await retry();
          continue;
        }
        readAfter = through;
        if (!durable && taken.length === 0) {
          commit(readAfter);
          continue;
        }
        const batch: (typeof taken)[number] = { through: readAfter, durable: durable ?? Promise.resolve(true) };
        void batch.durable.then((ok) => (batch.outcome = ok));
        taken.push(batch);
        // Beyond MAX_TAKEN batches the oldest is waited for.
        if (taken.length > MAX_TAKEN && !(await settleOldest())) await retry();
      }
      await settleAll();
    };
    const running = loop();
    return {
      stop: async () => {
        stopped = true;
        wake?.();
        this.inline.get(group)?.leave();
        this.appended.off('data', onData);
        await running;
        await this.flusher.idle();
        this.consumers.delete(group);
        if (this.consumers.size > 0) this.forgetRead();
        else {
          this.recent.clear();
          this.recentChars = 0;
          this.unstored.clear();
        }
      },
    };
  }

  /** The record of `seq` this process keeps in memory, if it does. */
  private kept(seq: number): LogRecord<T> | undefined {
    return this.recent.get(seq)?.record ?? this.unstored.get(seq);
  }

  /** The kept records from `after + 1` on, as long as they follow one another (up to `limit`). */
  private keptAfter(after: number, limit: number): LogRecord<T>[] {
    const records: LogRecord<T>[] = [];
    for (let seq = after + 1; records.length < limit && seq <= this.endSeq; seq++) {
      const kept = this.kept(seq);
      if (!kept) break;
      records.push(kept);
    }
    return records;
  }

  /** A record's value: kept in memory, or parsed from its row; undefined when it was never stored and is no longer kept, or its stored form can no longer be restored. */
  private valueOf(seq: number, stored: string): T | undefined {
    const kept = this.kept(seq);
    if (kept) return kept.value;
    if (stored === UNSTORED) return undefined;
    return this.form ? this.form.fromStored(JSON.parse(stored)) : (JSON.parse(stored) as T);
  }

  /** The position a group committed: in memory for a consumer here (an inline one commits inside appends' transactions). */
  private committedSeq(group: string): number {
    const here = this.consumers.get(group);
    if (here !== undefined) return here;
    const row = this.stmts.offset.get(this.topic, group) as { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  /** Drops records every known group has committed. */
  private trim(): void {
    this.commitsSinceTrim = 0;
    const row = this.stmts.minOffset.get(this.topic) as { seq: number | null };
    if (row.seq !== null) this.stmts.trim.run(row.seq);
  }

  async lag(group: string): Promise<number> {
    return (await this.progress(group)).lag;
  }

  async progress(group: string): Promise<ConsumerProgress> {
    const committed = this.committedSeq(group);
    return { lag: this.endSeq - committed, committed };
  }
}
