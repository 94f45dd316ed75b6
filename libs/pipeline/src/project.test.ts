/** The projectors on the embedded indexes (temp-file SQLite). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, SqliteGraphIndex, SqliteSearchIndex, SqliteTimeseriesIndex, type EmbeddedDb } from '@cairn/adapter-embedded';
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import type { LogRecord } from '@cairn/ports';
import { SearchProjector, TimeseriesProjector } from './project';

const registry = defaultRegistry();
const HIVE = 'urn:li:dataPlatform:hive';
const DS = `urn:li:dataset:(${HIVE},db.orders,PROD)`;
const UP1 = `urn:li:dataset:(${HIVE},db.raw_orders,PROD)`;
const UP2 = `urn:li:dataset:(${HIVE},db.customers,PROD)`;
const ALICE = 'urn:li:corpuser:alice';
const KEY_FIELDS = { urn: DS, platform: HIVE, id: 'db.orders', origin: 'PROD' };

const dir = mkdtempSync(join(tmpdir(), 'cairn-project-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let dbs = 0;
let db: EmbeddedDb;
let search: SqliteSearchIndex;
let graph: SqliteGraphIndex;
let timeseries: SqliteTimeseriesIndex;
let projector: SearchProjector;
let tsProjector: TimeseriesProjector;

beforeEach(() => {
  db = openDatabase(join(dir, `project-${++dbs}.sqlite`));
  search = new SqliteSearchIndex(db);
  graph = new SqliteGraphIndex(db);
  timeseries = new SqliteTimeseriesIndex(db);
  projector = new SearchProjector(registry, search, graph);
  tsProjector = new TimeseriesProjector(registry, timeseries);
});
afterEach(() => db.close());

function mcl(aspectName: string, value: unknown, extra: Partial<MetadataChangeLog> = {}): MetadataChangeLog {
  return {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName,
    ...(value === undefined ? {} : { aspect: { value: JSON.stringify(value), contentType: 'application/json' } }),
    created: { time: 1, actor: ALICE },
    ...extra,
  };
}
const deleted = (aspectName: string, urn = DS, entityType = 'dataset') => mcl(aspectName, undefined, { changeType: 'DELETE', entityUrn: urn, entityType });
const batch = (...values: MetadataChangeLog[]): LogRecord<MetadataChangeLog>[] =>
  values.map((value, i) => ({ id: `0:${i}`, key: value.entityUrn ?? '', value, timestamp: 0, headers: {} }));

const doc = (urn = DS, type = 'dataset') => search.getDocument(type, urn);
const out = (urn: string, types?: string[]) => graph.edges({ urn, direction: 'OUTGOING', ...(types ? { types } : {}), start: 0, count: 100 });
const into = (urn: string) => graph.edges({ urn, direction: 'INCOMING', start: 0, count: 100 });

describe('SearchProjector: documents', () => {
  it('gives each entity its own key fields when entities’ aspects alternate', async () => {
    const other = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events,DEV)';
    await projector.handleBatch(batch(mcl('status', { removed: false }), mcl('status', { removed: false }, { entityUrn: other }), mcl('subTypes', { typeNames: ['Table'] })));
    expect(await doc()).toMatchObject(KEY_FIELDS);
    expect(await doc(other)).toMatchObject({ urn: other, platform: 'urn:li:dataPlatform:kafka', id: 'events', origin: 'DEV' });
  });

  it('indexes the annotated fields of an aspect with the key fields from the URN', async () => {
    await projector.project(mcl('datasetProperties', { name: 'Orders', description: 'All orders', customProperties: { team: 'sales', tier: '1' }, created: { time: 5 }, tags: [] }));
    expect(await doc()).toEqual({
      ...KEY_FIELDS,
      name: 'Orders',
      description: 'All orders',
      hasDescription: true,
      customProperties: ['team=sales', 'tier=1'],
      createdAt: 5,
    });
  });

  it('indexes a single custom property as a list of one key=value', async () => {
    await projector.project(mcl('datasetProperties', { customProperties: { team: 'sales' } }));
    expect((await doc())!.customProperties).toEqual(['team=sales']);
  });

  it('gives a document key fields from the URN whatever aspect comes first', async () => {
    await projector.project(mcl('status', { removed: false }));
    expect(await doc()).toEqual({ ...KEY_FIELDS, removed: false });
  });

  it('reads key fields of a URN with a nested URN', async () => {
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_1,prod),task_1)';
    await projector.project(mcl('status', { removed: true }, { entityType: 'dataJob', entityUrn: job }));
    expect(await doc(job, 'dataJob')).toEqual({ urn: job, dataFlow: 'urn:li:dataFlow:(airflow,dag_1,prod)', jobId: 'task_1', removed: true });
  });

  it('clears the fields a new value of the aspect no longer has, and keeps other aspects', async () => {
    await projector.handleBatch(
      batch(
        mcl('datasetProperties', { name: 'Orders', description: 'All orders', customProperties: { team: 'sales' }, created: { time: 5 } }),
        mcl('status', { removed: false }),
        mcl('datasetProperties', { name: 'Orders v2', customProperties: {} }),
      ),
    );
    expect(await doc()).toEqual({ ...KEY_FIELDS, name: 'Orders v2', hasDescription: false, removed: false });
  });

  it('sets has-values fields', async () => {
    await projector.project(mcl('ownership', { owners: [{ owner: ALICE, type: 'DATAOWNER' }], lastModified: { time: 1, actor: ALICE } }));
    expect(await doc()).toMatchObject({ owners: [ALICE], hasOwners: true });
    await projector.project(mcl('ownership', { owners: [], lastModified: { time: 2, actor: ALICE } }));
    const d = await doc();
    expect(d!.hasOwners).toBe(false);
    expect(d).not.toHaveProperty('owners');
  });

  it('sets num-values fields', async () => {
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_1,prod),task_1)';
    await projector.project(mcl('dataJobInputOutput', { inputDatasets: [UP1, UP2], outputDatasets: [DS] }, { entityType: 'dataJob', entityUrn: job }));
    const d = await doc(job, 'dataJob');
    expect(d).toMatchObject({ inputs: [UP1, UP2], outputs: [DS] });
    expect(d!.numInputDatasets).toBe(2);
  });

  it('keeps multi-valued fields lists even with one value', async () => {
    await projector.project(mcl('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    expect(await doc()).toMatchObject({ tags: ['urn:li:tag:pii'], hasTags: true });
  });

  it('clears the fields of a deleted aspect', async () => {
    await projector.project(mcl('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    await projector.project(mcl('status', { removed: false }));
    await projector.project(deleted('globalTags'));
    expect(await doc()).toEqual({ ...KEY_FIELDS, removed: false });
  });

  it('drops the document and its edges on a DELETE of the key aspect', async () => {
    await projector.project(mcl('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    await projector.project(mcl('upstreamLineage', { upstreams: [{ dataset: UP1, type: 'TRANSFORMED' }] }));
    await projector.project(mcl('upstreamLineage', { upstreams: [{ dataset: DS, type: 'TRANSFORMED' }] }, { entityUrn: UP2 }));
    await projector.project(deleted('datasetKey'));
    expect(await doc()).toBeUndefined();
    expect((await out(DS)).total).toBe(0);
    expect((await into(DS)).total).toBe(0);
    expect(await doc(UP2)).toBeDefined();
  });

  it('ignores time-series aspects, unknown entities and aspects, and change logs without a URN', async () => {
    await projector.project(mcl('datasetProfile', { timestampMillis: 1, rowCount: 3 }));
    await projector.project(mcl('status', { removed: false }, { entityType: 'nope' }));
    await projector.project(mcl('nope', { removed: false }));
    await projector.project(mcl('status', { removed: false }, { entityUrn: undefined }));
    expect(await search.count()).toBe(0);
  });
});

describe('SearchProjector: edges', () => {
  it('writes the edges an aspect declares', async () => {
    await projector.project(mcl('ownership', { owners: [{ owner: ALICE, type: 'DATAOWNER' }], lastModified: { time: 1, actor: ALICE } }));
    expect(await out(DS)).toEqual({ total: 1, edges: [{ source: DS, destination: ALICE, relationshipType: 'OwnedBy' }] });
    expect((await into(ALICE)).total).toBe(1);
  });

  it('takes createdOn and createdActor from the same item of the list', async () => {
    await projector.project(
      mcl('upstreamLineage', {
        upstreams: [
          { dataset: UP1, type: 'TRANSFORMED', created: { time: 111, actor: ALICE } },
          { dataset: UP2, type: 'COPY' },
        ],
      }),
    );
    const { edges } = await out(DS, ['DownstreamOf']);
    expect(edges.sort((a, b) => a.destination.localeCompare(b.destination))).toEqual(
      [
        { source: DS, destination: UP1, relationshipType: 'DownstreamOf', createdOn: 111, createdActor: ALICE },
        { source: DS, destination: UP2, relationshipType: 'DownstreamOf' },
      ].sort((a, b) => a.destination.localeCompare(b.destination)),
    );
  });

  it('replaces the edges of an aspect with its new value', async () => {
    await projector.project(mcl('upstreamLineage', { upstreams: [{ dataset: UP1, type: 'TRANSFORMED' }] }));
    await projector.project(mcl('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    await projector.project(mcl('upstreamLineage', { upstreams: [{ dataset: UP2, type: 'TRANSFORMED' }] }));
    expect((await out(DS)).edges.map((e) => e.destination).sort()).toEqual([UP2, 'urn:li:tag:pii'].sort());
    await projector.project(deleted('upstreamLineage'));
    expect((await out(DS)).edges.map((e) => e.destination)).toEqual(['urn:li:tag:pii']);
  });

  it('writes the edges of a key aspect (a dataJob is part of its flow)', async () => {
    const flow = 'urn:li:dataFlow:(airflow,dag_1,prod)';
    const job = `urn:li:dataJob:(${flow},task_1)`;
    await projector.project(mcl('dataJobKey', { flow, jobId: 'task_1' }, { entityType: 'dataJob', entityUrn: job }));
    expect(await out(job)).toEqual({ total: 1, edges: [{ source: job, destination: flow, relationshipType: 'IsPartOf' }] });
    expect(await doc(job, 'dataJob')).toEqual({ urn: job, dataFlow: flow, jobId: 'task_1' });
  });
});

describe('TimeseriesProjector', () => {
  const profile = (extra: Record<string, unknown> = {}) => ({ timestampMillis: 1_650_000_000_000, rowCount: 10, ...extra });
  const profiles = () => timeseries.query({ entityType: 'dataset', aspect: 'datasetProfile', urn: DS, limit: 100 });

  it('stores a time-series value with its identity and system metadata', async () => {
    const value = profile({ eventGranularity: { unit: 'DAY', multiple: 1 }, partitionSpec: { partition: 'p1', type: 'PARTITION' }, messageId: 'm1' });
    await tsProjector.project(mcl('datasetProfile', value, { systemMetadata: { runId: 'r1' } }));
    expect(await profiles()).toEqual([
      {
        entityType: 'dataset',
        aspect: 'datasetProfile',
        urn: DS,
        timestampMillis: 1_650_000_000_000,
        eventGranularity: JSON.stringify({ multiple: 1, unit: 'DAY' }),
        partitionSpec: JSON.stringify({ partition: 'p1', type: 'PARTITION' }),
        messageId: 'm1',
        event: JSON.stringify(value),
        systemMetadata: JSON.stringify({ runId: 'r1' }),
      },
    ]);
  });

  it('overwrites a value of the same identity and keeps values of another', async () => {
    await tsProjector.handleBatch(
      batch(
        mcl('datasetProfile', profile({ rowCount: 1, partitionSpec: { partition: 'p1', type: 'PARTITION' } })),
        mcl('datasetProfile', profile({ rowCount: 2, partitionSpec: { partition: 'p1', type: 'PARTITION' } })),
        mcl('datasetProfile', profile({ rowCount: 3, partitionSpec: { partition: 'p2', type: 'PARTITION' } })),
        mcl('datasetProfile', profile({ rowCount: 4, timestampMillis: 1_650_000_000_001 })),
      ),
    );
    const docs = await profiles();
    expect(docs.map((d) => JSON.parse(d.event).rowCount).sort()).toEqual([2, 3, 4]);
    expect(docs[0].timestampMillis).toBe(1_650_000_000_001);
  });

  it('treats an absent partitionSpec as the default one, whatever its key order', async () => {
    await tsProjector.project(mcl('datasetProfile', profile({ rowCount: 1 })));
    await tsProjector.project(mcl('datasetProfile', profile({ rowCount: 2, partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT', type: 'FULL_TABLE' } })));
    const docs = await profiles();
    expect(docs.map((d) => JSON.parse(d.event).rowCount)).toEqual([2]);
    expect(docs[0].partitionSpec).toBe('{"partition":"FULL_TABLE_SNAPSHOT","type":"FULL_TABLE"}');
  });

  it('ignores versioned aspects, deletes without a value and unknown entities', async () => {
    await tsProjector.project(mcl('status', { removed: false }));
    await tsProjector.project(mcl('datasetProfile', undefined));
    await tsProjector.project(mcl('datasetProfile', profile(), { entityType: 'nope' }));
    expect(await timeseries.query({ entityType: 'dataset', aspect: 'status', limit: 10 })).toEqual([]);
    expect(await profiles()).toEqual([]);
  });

  it('is not the search projector: a time-series change log does not touch the search index', async () => {
    await tsProjector.project(mcl('datasetProfile', profile()));
    await projector.project(mcl('datasetProfile', profile()));
    expect(await search.count()).toBe(0);
    expect(await profiles()).toHaveLength(1);
  });
});

