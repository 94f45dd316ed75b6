/** Writes through ingestProposal and reads back through every read endpoint, with version semantics. */
import { call, enc, eventually, proposal, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

describe('ingestProposal and reads', () => {
  it('stores an aspect, returns the urn, and reads it back right after', async () => {
    const urn = datasetUrn(unique('orders'));
    const put = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProperties', { description: 'Orders', customProperties: { team: 'sales' } }));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ value: urn });
    expect(put.headers.get('x-restli-protocol-version')).toBe('2.0.0');

    const v2 = await call(t, 'GET', `/entitiesV2/${enc(urn)}`);
    expect(v2.status).toBe(200);
    expect(v2.body.urn).toBe(urn);
    expect(v2.body.entityName).toBe('dataset');
    const props = v2.body.aspects.datasetProperties;
    expect(props).toMatchObject({ name: 'datasetProperties', type: 'VERSIONED', version: 0, value: { description: 'Orders', customProperties: { team: 'sales' } } });
    expect(props.created.actor).toMatch(/^urn:li:corpuser:/);
    expect(props.systemMetadata).toMatchObject({ runId: 'no-run-id-provided' });
    expect(props.systemMetadata.lastObserved).toBeGreaterThan(0);
    // The key aspect is stored on the first write.
    expect(v2.body.aspects.datasetKey.value).toEqual({ platform: 'urn:li:dataPlatform:hive', name: urn.split(',')[1], origin: 'PROD' });
  });

  it('keeps the previous value as version max+1 and version 0 as the latest', async () => {
    const urn = datasetUrn(unique('versions'));
    for (const d of ['one', 'two', 'three']) {
      expect((await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProperties', { description: d }))).status).toBe(200);
    }
    const get = (v: number) => call(t, 'GET', `/aspects/${enc(urn)}?aspect=datasetProperties&version=${v}`);
    expect((await get(0)).body).toEqual({ version: 0, aspect: { 'com.linkedin.dataset.DatasetProperties': { description: 'three' } } });
    expect((await get(1)).body.aspect['com.linkedin.dataset.DatasetProperties'].description).toBe('one');
    expect((await get(2)).body.aspect['com.linkedin.dataset.DatasetProperties'].description).toBe('two');
    const missing = await get(3);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(`Did not find urn: ${urn} aspect: datasetProperties version: 3`);
  });

  it('treats an identical write as a no-op that only refreshes lastObserved', async () => {
    const urn = datasetUrn(unique('same'));
    const value = { description: 'same', customProperties: { a: '1', b: '2' } };
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProperties', value, { systemMetadata: { lastObserved: 1000, runId: 'run-1' } }));
    // Same data, other key order: still identical.
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProperties', { customProperties: { b: '2', a: '1' }, description: 'same' }, { systemMetadata: { lastObserved: 2000, runId: 'run-2' } }));
    expect((await call(t, 'GET', `/aspects/${enc(urn)}?aspect=datasetProperties&version=1`)).status).toBe(404);
    const latest = await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(datasetProperties)`);
    expect(latest.body.aspects.datasetProperties.systemMetadata).toMatchObject({ lastObserved: 2000, runId: 'run-1' });
  });

  it('returns only the aspects asked for, in plain or encoded List form', async () => {
    const urn = datasetUrn(unique('subset'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    const plain = await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(globalTags)`);
    expect(Object.keys(plain.body.aspects)).toEqual(['globalTags']);
    const encoded = await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=${enc('List(globalTags,status)')}`);
    expect(Object.keys(encoded.body.aspects).sort()).toEqual(['globalTags', 'status']);
  });

  it('answers batch gets keyed by urn', async () => {
    const a = datasetUrn(unique('batch_a'));
    const b = datasetUrn(unique('batch_b'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(a, 'status', { removed: false }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(b, 'status', { removed: true }));
    const res = await call(t, 'GET', `/entitiesV2?ids=List(${enc(a)},${enc(b)})&aspects=List(status)`);
    expect(res.status).toBe(200);
    expect(res.body.results[a].aspects.status.value).toEqual({ removed: false });
    expect(res.body.results[b].aspects.status.value).toEqual({ removed: true });
    expect(res.body.errors).toEqual({});
    // Unencoded nested URNs inside List(...) are split by parenthesis depth.
    const plain = await call(t, 'GET', `/entitiesV2?ids=List(${a},${b})`);
    expect(Object.keys(plain.body.results).sort()).toEqual([a, b].sort());
  });

  it('synthesizes the key aspect for an entity with nothing stored', async () => {
    const urn = 'urn:li:corpuser:' + unique('nobody');
    const res = await call(t, 'GET', `/entitiesV2/${enc(urn)}`);
    expect(res.status).toBe(200);
    expect(res.body.aspects).toEqual({ corpUserKey: expect.objectContaining({ value: { username: urn.slice('urn:li:corpuser:'.length) } }) });
    expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: false });
  });

  it('deletes one aspect with a DELETE proposal', async () => {
    const urn = datasetUrn(unique('delaspect'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'globalTags', { tags: [] }));
    const del = await call(t, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'DELETE', aspectName: 'globalTags' } });
    expect(del.status).toBe(200);
    const res = await call(t, 'GET', `/entitiesV2/${enc(urn)}`);
    expect(Object.keys(res.body.aspects).sort()).toEqual(['datasetKey', 'status']);
  });

  it('hard-deletes one aspect, every version of it, with /entities?action=delete and aspectName', async () => {
    const urn = datasetUrn(unique('delone'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'globalTags', { tags: [] }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:x' }] }));
    const del = await call(t, 'POST', '/entities?action=delete', { urn, aspectName: 'globalTags' });
    expect(del.status).toBe(200);
    expect(del.body.value).toMatchObject({ urn, rows: 2 });
    expect(Object.keys((await call(t, 'GET', `/entitiesV2/${enc(urn)}`)).body.aspects).sort()).toEqual(['datasetKey', 'status']);
    expect((await call(t, 'GET', `/aspects/${enc(urn)}?aspect=globalTags&version=1`)).status).toBe(404);
  });

  it('applies a JSON patch to the latest value', async () => {
    const urn = datasetUrn(unique('patch'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:a' }] }));
    const patch = [
      { op: 'add', path: '/tags/-', value: { tag: 'urn:li:tag:b' } },
      { op: 'remove', path: '/tags/0' },
    ];
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', {
      proposal: { entityType: 'dataset', entityUrn: urn, changeType: 'PATCH', aspectName: 'globalTags', aspect: { value: JSON.stringify(patch), contentType: 'application/json-patch+json' } },
    });
    expect(res.status).toBe(200);
    const read = await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(globalTags)`);
    expect(read.body.aspects.globalTags.value).toEqual({ tags: [{ tag: 'urn:li:tag:b' }] });
    expect((await call(t, 'GET', `/aspects/${enc(urn)}?aspect=globalTags&version=1`)).body.aspect['com.linkedin.common.GlobalTags']).toEqual({ tags: [{ tag: 'urn:li:tag:a' }] });
  });

  it('answers async=true once the proposal is queued; the write still lands', async () => {
    const urn = datasetUrn(unique('async'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', { ...proposal(urn, 'status', { removed: false }), async: 'true' });
    expect(res.status).toBe(200);
    const deadline = Date.now() + 5000;
    let found = false;
    while (!found && Date.now() < deadline) {
      found = (await call(t, 'POST', '/entities?action=exists', { urn })).body.value === true;
      if (!found) await new Promise((r) => setTimeout(r, 20));
    }
    expect(found).toBe(true);
  });

  it('hard-deletes an entity and reports the rows removed', async () => {
    const urn = datasetUrn(unique('harddelete'));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: true }));
    expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: true });
    const del = await call(t, 'POST', '/entities?action=delete', { urn });
    expect(del.status).toBe(200);
    // key + status v0 + status v1
    expect(del.body.value).toEqual({ urn, rows: 3, timeseriesRows: 0 });
    expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: false });
    expect((await call(t, 'POST', '/entities?action=delete', { urn })).status).toBe(404);
  });

  it('serves every route under /api/gms and tolerates a trailing slash', async () => {
    const urn = datasetUrn(unique('prefix'));
    expect((await call(t, 'POST', '/api/gms/aspects/?action=ingestProposal', proposal(urn, 'status', { removed: false }))).status).toBe(200);
    expect((await call(t, 'GET', `/api/gms/entitiesV2/${enc(urn)}`)).body.aspects.status.value).toEqual({ removed: false });
    expect((await call(t, 'GET', '/api/gms/config')).body.noCode).toBe('true');
  });

  it('answers /config and /health', async () => {
    const config = await call(t, 'GET', '/config');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ noCode: 'true', retention: 'true', statefulIngestionCapable: true });
    expect(config.body.versions['linkedin/datahub'].version).toEqual(expect.any(String));
    expect((await call(t, 'GET', '/health')).status).toBe(200);
  });
});

describe('time-series aspects', () => {
  it('skips the aspect store and answers getTimeseriesAspectValues newest first', async () => {
    const urn = datasetUrn(unique('profiled'));
    for (const ts of [1000, 3000, 2000]) {
      await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'datasetProfile', { timestampMillis: ts, rowCount: ts / 10, columnCount: 2 }));
    }
    const query = () => call(t, 'POST', '/aspects?action=getTimeseriesAspectValues', { urn, entity: 'dataset', aspect: 'datasetProfile', startTimeMillis: 0, endTimeMillis: 5000 });
    const deadline = Date.now() + 5000;
    let res = await query();
    while (res.body.value.values.length < 3 && Date.now() < deadline) res = await query();
    expect(res.body.value).toMatchObject({ entityName: 'dataset', aspectName: 'datasetProfile', limit: 10000, startTimeMillis: 0, endTimeMillis: 5000 });
    expect(res.body.value.values.map((v: any) => JSON.parse(v.aspect.value).timestampMillis)).toEqual([3000, 2000, 1000]);
    expect(res.body.value.values[0].aspect.contentType).toBe('application/json');
    expect((await call(t, 'GET', `/aspects/${enc(urn)}?aspect=datasetProfile&version=1`)).status).toBe(404);
    // Range delete of time-series rows.
    const del = await call(t, 'POST', '/entities?action=delete', { urn, aspectName: 'datasetProfile', startTimeMillis: 1500, endTimeMillis: 5000 });
    expect(del.body.value).toEqual({ urn, timeseriesRows: 2 });
    // The time-series index is eventually consistent with deletes too.
    const remaining = await eventually(async () => {
      const ts = (await query()).body.value.values.map((v: any) => JSON.parse(v.aspect.value).timestampMillis);
      return ts.length === 1 ? ts : undefined;
    });
    expect(remaining).toEqual([1000]);
  });
});

describe('metrics', () => {
  it('exposes Prometheus metrics with request latencies and consumer lag', async () => {
    await call(t, 'GET', '/config');
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: t.authHeaders });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/cairn_http_request_duration_seconds_bucket\{[^}]*route="\/config"/);
    expect(text).toMatch(/cairn_consumer_lag_records\{[^}]*group="mce-consumer"[^}]*\} \d+/);
  });
});
