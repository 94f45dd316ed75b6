/** EventLog on SQLite: one table of records per topic, committed offsets per consumer group. */
import { EventEmitter } from 'node:events';
import type { AppendOptions, BatchHandler, Consumer, ConsumeOptions, ConsumerProgress, EventLog, LogRecord, NewRecord } from '@cairn/ports';
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
  committed(): void;
  failed(err: unknown): void;
}

/**
 * The flush of every topic's appends on one file, once an event-loop turn, in one transaction: the
 * persister's change logs of a batch, its time-series change logs and failures, and the proposals
 * requests appended in the same turn, are one commit instead of one a topic.
 */
class FileFlusher {
  private readonly due = new Set<() => TopicFlush>();
  private scheduled = false;

  constructor(private readonly db: EmbeddedDb) {}

  /** `take` runs at the next flush (once, however often it is scheduled before). */
  schedule(take: () => TopicFlush): void {
    this.due.add(take);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    // Inside another unit's open transaction the appends would be acknowledged before they are durable.
    if (this.db.inTransaction) {
      setImmediate(() => this.flush());
      return;
    }
    this.scheduled = false;
    const flushes = [...this.due].map((take) => take());
    this.due.clear();
    try {
      this.db.transaction(() => flushes.forEach((f) => f.write()))();
    } catch (err) {
      flushes.forEach((f) => f.failed(err));
      return;
    }
    flushes.forEach((f) => f.committed());
  }
}

const flushers = new WeakMap<EmbeddedDb, FileFlusher>();
function flusherOf(db: EmbeddedDb): FileFlusher {
  let flusher = flushers.get(db);
  if (!flusher) flushers.set(db, (flusher = new FileFlusher(db)));
  return flusher;
}

export class SqliteEventLog<T> implements EventLog<T> {
  private nextSeq: number;
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
      read: db.prepare(`SELECT seq, key, value, ts, headers FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?`),
      offset: db.prepare('SELECT seq FROM log_offsets WHERE topic = ? AND grp = ?'),
      commit: db.prepare('INSERT INTO log_offsets (topic, grp, seq) VALUES (?, ?, ?) ON CONFLICT (topic, grp) DO UPDATE SET seq = excluded.seq'),
      minOffset: db.prepare('SELECT MIN(seq) AS seq FROM log_offsets WHERE topic = ?'),
      trim: db.prepare(`DELETE FROM ${table} WHERE seq <= ?`),
      groups: db.prepare('SELECT grp FROM log_offsets WHERE topic = ?').pluck(),
    };
    const row = db.prepare(`SELECT MAX(seq) AS seq FROM ${table}`).get() as { seq: number | null };
    const committed = db.prepare('SELECT MAX(seq) AS seq FROM log_offsets WHERE topic = ?').get(topic) as { seq: number | null };
    this.nextSeq = Math.max(row.seq ?? 0, committed.seq ?? 0) + 1;
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
    const start = this.nextSeq;
    const written: [seq: number, record: LogRecord<T>, chars: number][] = [];
    const unstored: [seq: number, record: LogRecord<T>][] = [];
    const everyGroupHere = batch.some((p) => p.reproducible) && this.everyGroupConsumesHere();
    let ids: string[][] = [];
    return {
      write: () => {
        let seq = start;
        ids = batch.map((p) =>
          p.records.map((r) => {
            const headers = r.headers ? JSON.stringify(r.headers) : null;
            const id = `0:${seq}`;
            const record = () => ({ id, key: r.key, value: r.value, timestamp: now, headers: r.headers ?? {} });
            if (p.reproducible && everyGroupHere) {
              this.stmts.insert.run(seq, r.key, UNSTORED, now, headers);
              unstored.push([seq, record()]);
            } else {
              const json = JSON.stringify(this.form ? this.form.toStored(r.value) : r.value);
              this.stmts.insert.run(seq, r.key, json, now, headers);
              if (this.consumers.size > 0) written.push([seq, record(), json.length + (this.form?.heldChars(r.value) ?? 0)]);
            }
            seq++;
            return id;
          }),
        );
      },
      committed: () => {
        this.nextSeq = start + ids.reduce((n, a) => n + a.length, 0);
        for (const [seq, record, chars] of written) this.keepRecent(seq, record, chars);
        for (const [seq, record] of unstored) this.unstored.set(seq, record);
        batch.forEach((p, i) => p.resolve(ids[i]));
        this.appended.emit('data');
      },
      failed: (err) => batch.forEach((p) => p.reject(err)),
    };
  };

  private keepRecent(seq: number, record: LogRecord<T>, chars: number): void {
    this.recent.set(seq, { record, chars });
    this.recentChars += chars;
    for (const [oldest, kept] of this.recent) {
      if (this.recentChars <= RECENT_MAX_CHARS) break;
      this.recent.delete(oldest);
      this.recentChars -= kept.chars;
    }
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

    if (options.fromLatest && this.stmts.offset.get(this.topic, group) === undefined) {
      this.stmts.commit.run(this.topic, group, this.nextSeq - 1);
    }
    this.consumers.set(group, this.committedSeq(group));
    /** The records after `after`, and the seq read through (a skipped record's included). */
    const read = (after: number): { records: LogRecord<T>[]; through: number } => {
      const kept = this.keptAfter(after, maxBatch);
      if (kept.length > 0) return { records: kept, through: after + kept.length };
      const rows = this.stmts.read.all(after, maxBatch) as { seq: number; key: string; value: string; ts: number; headers: string | null }[];
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
        // from the next seq, not read: every append wakes this wait.
        if (taken.length > 0 && this.nextSeq - 1 - readAfter < maxBatch) {
          const durable = await Promise.race([taken[0].durable.then(() => true), sleep(POLL_MS).then(() => false)]);
          wake?.();
          if (durable && !(await settleOldest())) await retry();
          continue;
        }
        let { records, through } = read(readAfter);
        if (through === readAfter) {
          await sleep(POLL_MS);
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
        this.appended.off('data', onData);
        await running;
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
    for (let seq = after + 1; records.length < limit && seq < this.nextSeq; seq++) {
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

  private committedSeq(group: string): number {
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
    return { lag: this.nextSeq - 1 - committed, committed };
  }
}
