/**
 * The ingest on the embedded log: a proposal stays in the log until the persister has appended its
 * change log, even when the caller waits for the apply (the persister appends the change logs after
 * the aspects commit, and a process that stops between the two delivers the proposal again).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteAspectStore, SqliteEventLog, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import type { FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import type { Consumer, EventLog } from '@cairn/ports';
import { IngestService } from './ingest';
import type { PipelineLogs } from './logs';
import { Persister } from './persist';
import { JSON_CONTENT } from './proposal-check';
import { WriteNotifier } from './write-notifier';

const registry = defaultRegistry();
const ACTOR = 'urn:li:corpuser:writer';
const GROUP = 'mce-consumer';
const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,restarted,PROD)';

const dir = mkdtempSync(join(tmpdir(), 'cairn-ingest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The catalog's logs on `db`, as a process opening the file finds them. */
function logsOn(db: EmbeddedDb): PipelineLogs {
  return {
    proposals: new SqliteEventLog<MetadataChangeProposal>(db, 'MetadataChangeProposal_v1'),
    failedProposals: new SqliteEventLog<FailedMetadataChangeProposal>(db, 'FailedMetadataChangeProposal_v1'),
    versionedChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Versioned_v1'),
    timeseriesChangeLog: new SqliteEventLog<MetadataChangeLog>(db, 'MetadataChangeLog_Timeseries_v1'),
  };
}

/** A log whose appends fail: the process stops after the aspects commit, before their change logs. */
function stoppingAtAppend<T>(log: EventLog<T>): EventLog<T> {
  return {
    topic: log.topic,
    append: async () => Promise.reject(new Error('the process stopped')),
    consume: (group, handler, options) => log.consume(group, handler, options),
    lag: (group) => log.lag(group),
    progress: (group) => log.progress(group),
  };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('IngestService on the embedded log', () => {
  it('delivers a sync proposal again after a stop between its aspect and its change log, so the change log is appended', async () => {
    const db = openDatabase(join(dir, 'restart.sqlite'));
    try {
      const store = new SqliteAspectStore(db);
      const logs = logsOn(db);
      const notifier = new WriteNotifier();
      const persister = new Persister(registry, store, { ...logs, versionedChangeLog: stoppingAtAppend(logs.versionedChangeLog) }, notifier);
      let persisting: Consumer | undefined = logs.proposals.consume(GROUP, async (batch) => persister.handleBatch(batch));
      const proposal = {
        entityType: 'dataset',
        entityUrn: URN,
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: JSON.stringify({ removed: true }), contentType: JSON_CONTENT },
      } as MetadataChangeProposal;
      const answer = new IngestService(registry, logs, notifier, 300).propose([proposal], { actor: ACTOR }).catch((err: unknown) => err);
      await waitFor(async () => (await store.getLatest([URN], ['status'])).length === 1, 5000);
      await persisting.stop();
      persisting = undefined;
      expect(await answer).toMatchObject({ status: 504 });

      // The process starts again on the same file.
      const restarted = logsOn(db);
      const changeLogs: MetadataChangeLog[] = [];
      const indexing = restarted.versionedChangeLog.consume('search', async (batch) => void changeLogs.push(...batch.map((r) => r.value)));
      const again = restarted.proposals.consume(GROUP, async (batch) => new Persister(registry, store, restarted, new WriteNotifier()).handleBatch(batch));
      try {
        await waitFor(async () => changeLogs.some((c) => c.aspectName === 'status'), 5000);
      } finally {
        await again.stop();
        await indexing.stop();
      }
      expect(changeLogs.find((c) => c.aspectName === 'status')).toMatchObject({ entityUrn: URN, aspect: { value: JSON.stringify({ removed: true }) } });
    } finally {
      db.close();
    }
  });
});
