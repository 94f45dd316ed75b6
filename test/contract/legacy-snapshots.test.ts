/** Legacy snapshot ingest and reads, in the Rest.li form and in the Avro-JSON form of the samples. */
import { call, enc, startTarget, unique, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

describe('legacy /entities', () => {
  it('ingests a Rest.li snapshot and reads it back as a snapshot', async () => {
    const urn = `urn:li:corpuser:${unique('jdoe')}`;
    const res = await call(t, 'POST', '/entities?action=ingest', {
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.CorpUserSnapshot': {
            urn,
            aspects: [{ 'com.linkedin.identity.CorpUserInfo': { active: true, displayName: 'John Doe', email: 'jdoe@example.com' } }],
          },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    const read = await call(t, 'GET', `/entities/${enc(urn)}`);
    expect(read.status).toBe(200);
    const snapshot = read.body.value['com.linkedin.metadata.snapshot.CorpUserSnapshot'];
    expect(snapshot.urn).toBe(urn);
    expect(snapshot.aspects).toEqual(
      expect.arrayContaining([{ 'com.linkedin.identity.CorpUserInfo': { active: true, displayName: 'John Doe', email: 'jdoe@example.com' } }]),
    );
  });

  it('ingests the Avro-JSON union form and stores the Rest.li form', async () => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:kafka,${unique('avro')},PROD)`;
    const res = await call(t, 'POST', '/entities?action=ingest', {
      entity: {
        value: {
          'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
            urn,
            aspects: [
              { 'com.linkedin.pegasus2avro.dataset.DatasetProperties': { description: { string: 'From a file' }, uri: null, tags: [], customProperties: { k: 'v' } } },
              { 'com.linkedin.pegasus2avro.common.Ownership': { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER', source: null }], lastModified: { time: 1, actor: 'urn:li:corpuser:jdoe', impersonator: null } } },
            ],
          },
        },
      },
    });
    expect(res.status).toBe(200);
    const v2 = await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(datasetProperties,ownership)`);
    expect(v2.body.aspects.datasetProperties.value).toEqual({ description: 'From a file', tags: [], customProperties: { k: 'v' } });
    expect(v2.body.aspects.ownership.value).toEqual({ owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }], lastModified: { time: 1, actor: 'urn:li:corpuser:jdoe' } });
  });

  it('batch-ingests several snapshots', async () => {
    const urns = [unique('t1'), unique('t2')].map((n) => `urn:li:tag:${n}`);
    const res = await call(t, 'POST', '/entities?action=batchIngest', {
      entities: urns.map((urn) => ({ value: { 'com.linkedin.metadata.snapshot.TagSnapshot': { urn, aspects: [{ 'com.linkedin.tag.TagProperties': { name: urn.slice(11), description: 'd' } }] } } })),
    });
    expect(res.status).toBe(200);
    for (const urn of urns) {
      expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(tagProperties)`)).body.aspects.tagProperties.value.description).toBe('d');
    }
  });

  it('batch-ingests snapshots in the Avro-JSON union form', async () => {
    const urns = [unique('a1'), unique('a2')].map((n) => `urn:li:tag:${n}`);
    const res = await call(t, 'POST', '/entities?action=batchIngest', {
      entities: urns.map((urn) => ({
        value: { 'com.linkedin.pegasus2avro.metadata.snapshot.TagSnapshot': { urn, aspects: [{ 'com.linkedin.pegasus2avro.tag.TagProperties': { name: urn.slice(11), description: { string: 'union' }, colorHex: null } }] } },
      })),
    });
    expect(res.status).toBe(200);
    for (const urn of urns) {
      expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(tagProperties)`)).body.aspects.tagProperties.value).toEqual({ name: urn.slice(11), description: 'union' });
    }
  });

  it('reads a glossary term with ownership and glossaryTermInfo on the snapshot itself', async () => {
    const urn = `urn:li:glossaryTerm:${unique('term')}`;
    await call(t, 'POST', '/entities?action=ingest', {
      entity: {
        value: {
          'com.linkedin.metadata.snapshot.GlossaryTermSnapshot': {
            urn,
            aspects: [
              { 'com.linkedin.glossary.GlossaryTermInfo': { definition: 'a term', termSource: 'EXTERNAL' } },
              { 'com.linkedin.common.Ownership': { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }], lastModified: { time: 0, actor: 'urn:li:corpuser:a' } } },
            ],
          },
        },
      },
    });
    const snapshot = (await call(t, 'GET', `/entities/${enc(urn)}`)).body.value['com.linkedin.metadata.snapshot.GlossaryTermSnapshot'];
    expect(snapshot.glossaryTermInfo).toEqual({ definition: 'a term', termSource: 'EXTERNAL' });
    expect(snapshot.ownership.owners[0].owner).toBe('urn:li:corpuser:a');
    expect(snapshot.aspects.length).toBeGreaterThanOrEqual(2);
  });
});
