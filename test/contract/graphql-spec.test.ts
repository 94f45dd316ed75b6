/**
 * The spec's GraphQL operations on the reference samples: each edit is read back right after it;
 * edits of missing datasets or columns fail and write nothing; only POST is accepted.
 */
import { bootstrapCopy, gql, loadBootstrapCopy } from '../support/graphql';
import { call, startTarget, unique, type Target } from '../support/target';

const suffix = unique('spec');
const { HIVE, KAFKA, EVENTS, DATABASE } = bootstrapCopy(suffix);

let t: Target;
beforeAll(async () => {
  t = await startTarget();
  await loadBootstrapCopy(t, suffix);
}, 120_000);
afterAll(() => t.close());

const READ_DATASET = `query getDataset($urn: String!) {
  dataset(urn: $urn) {
    urn
    properties { description }
    editableProperties { description }
    schemaMetadata { fields { fieldPath description } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
    institutionalMemory { elements { url label author { urn } created { actor } } }
  }
}`;

describe('query dataset', () => {
  it('answers {data, extensions} with the properties and schema fields', async () => {
    const res = await gql(t, READ_DATASET, { urn: EVENTS });
    expect(res.status).toBe(200);
    expect(res.body.extensions).toEqual({});
    expect(res.errors).toBeUndefined();
    const ds = res.data.dataset;
    expect(ds.urn).toBe(EVENTS);
    expect(ds.properties.description).toBe('table where each row represents a single log event');
    expect(ds.schemaMetadata.fields).toEqual([
      { fieldPath: 'event_name', description: 'Name of your logging event' },
      { fieldPath: 'event_data', description: 'Data of your event' },
      { fieldPath: 'timestamp', description: 'TS the event was ingested' },
      { fieldPath: 'browser', description: null },
    ]);
  });

  it('answers null for a dataset that does not exist', async () => {
    const res = await gql(t, READ_DATASET, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)' });
    expect(res.data).toEqual({ dataset: null });
  });

  it('is also served at /api/v2/graphql', async () => {
    const res = await gql(t, 'query($urn: String!) { dataset(urn: $urn) { urn } }', { urn: HIVE }, '/api/v2/graphql');
    expect(res.data.dataset.urn).toBe(HIVE);
  });
});

describe('mutation updateDataset', () => {
  it('sets the editable description (markdown) and the links, read back right after', async () => {
    const res = await gql(
      t,
      `mutation updateDataset($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }`,
      {
        urn: HIVE,
        input: {
          editableProperties: { description: '## The *hive* sample\n\nWith **markdown**.' },
          institutionalMemory: { elements: [{ author: 'urn:li:corpuser:datahub', url: 'https://wiki.example.com/hive', description: 'Wiki page' }] },
        },
      },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ updateDataset: { urn: HIVE } });
    const read = (await gql(t, READ_DATASET, { urn: HIVE })).data.dataset;
    expect(read.editableProperties.description).toBe('## The *hive* sample\n\nWith **markdown**.');
    expect(read.institutionalMemory.elements).toEqual([
      { url: 'https://wiki.example.com/hive', label: 'Wiki page', author: { urn: 'urn:li:corpuser:datahub' }, created: { actor: 'urn:li:corpuser:datahub' } },
    ]);
  });

  it('fails on a dataset that does not exist and writes nothing', async () => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${unique('missing')},PROD)`;
    const res = await gql(t, `mutation { updateDataset(urn: "${urn}", input: {editableProperties: {description: "x"}}) { urn } }`);
    expect(res.data.updateDataset).toBeNull();
    expect(res.errors?.[0].message).toBe(`Entity ${urn} does not exist`);
    expect(res.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await gql(t, `{ entityExists(urn: "${urn}") }`)).data.entityExists).toBe(false);
  });
});

describe('mutation updateDataset: editableSchemaMetadata', () => {
  const UPDATE = `mutation updateDataset($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }`;
  const edited = async (urn: string) =>
    (await gql(t, `query($urn: String!) { dataset(urn: $urn) { editableProperties { description } ownership { owners { type } }
      editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description tags { tags { tag { urn } } } } } } }`, { urn })).data.dataset;
  const fieldInfo = (fieldPath: string, description: string, tagUrn?: string) => ({
    fieldPath,
    description,
    ...(tagUrn ? { globalTags: { tags: [{ tag: { urn: tagUrn, name: tagUrn.slice('urn:li:tag:'.length) } }] } } : {}),
  });

  it('sets column descriptions and tags, under the schema\'s own field paths', async () => {
    const res = await gql(t, UPDATE, { urn: KAFKA, input: { editableSchemaMetadata: { editableSchemaFieldInfo: [fieldInfo('field_bar', 'The bar', 'urn:li:tag:Legacy')] } } });
    expect(res.errors).toBeUndefined();
    // The Kafka sample's fields have version 2 paths; the plain path names the same column.
    expect((await edited(KAFKA)).editableSchemaMetadata.editableSchemaFieldInfo).toEqual([
      { fieldPath: '[version=2.0].[type=boolean].field_bar', description: 'The bar', tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] } },
    ]);
  });

  it('fails on a column the schema does not have and writes nothing; updateDatasets writes nothing of any dataset', async () => {
    const [hiveBefore, eventsBefore] = [await edited(HIVE), await edited(EVENTS)];
    const one = await gql(t, UPDATE, { urn: EVENTS, input: { editableSchemaMetadata: { editableSchemaFieldInfo: [fieldInfo('event_name', 'x'), fieldInfo('no_such_column', 'x')] } } });
    expect(one.data.updateDataset).toBeNull();
    expect(one.errors?.[0]).toMatchObject({ message: `Field no_such_column does not exist in the schema of dataset ${EVENTS}`, extensions: { code: 'BAD_USER_INPUT' } });
    const batch = await gql(t, `mutation($input: [BatchDatasetUpdateInput!]!) { updateDatasets(input: $input) { urn } }`, {
      input: [
        { urn: HIVE, update: { editableProperties: { description: 'must not be written' } } },
        { urn: EVENTS, update: { editableSchemaMetadata: { editableSchemaFieldInfo: [fieldInfo('no_such_column', 'x')] } } },
      ],
    });
    expect(batch.errors?.[0]).toMatchObject({ message: `Field no_such_column does not exist in the schema of dataset ${EVENTS}`, extensions: { code: 'BAD_USER_INPUT' } });
    expect([await edited(HIVE), await edited(EVENTS)]).toEqual([hiveBefore, eventsBefore]);
  });

  it('fails on tags and owners that do not exist, and writes nothing', async () => {
    const before = await edited(EVENTS);
    const tag = `urn:li:tag:${unique('nope')}`;
    const noTag = await gql(t, UPDATE, { urn: EVENTS, input: { editableSchemaMetadata: { editableSchemaFieldInfo: [fieldInfo('event_name', 'x', tag)] } } });
    expect(noTag.errors?.[0]).toMatchObject({ message: `Entity ${tag} does not exist`, extensions: { code: 'NOT_FOUND' } });
    const user = `urn:li:corpuser:${unique('ghost')}`;
    const noOwner = await gql(t, UPDATE, { urn: EVENTS, input: { editableProperties: { description: 'x' }, ownership: { owners: [{ owner: user, type: 'DATAOWNER' }] } } });
    expect(noOwner.errors?.[0]).toMatchObject({ message: `Entity ${user} does not exist`, extensions: { code: 'NOT_FOUND' } });
    const notAnOwner = await gql(t, UPDATE, { urn: EVENTS, input: { ownership: { owners: [{ owner: 'urn:li:tag:Legacy' }] } } });
    expect(notAnOwner.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(await edited(EVENTS)).toEqual(before);
  });
});

describe('mutation updateDescription', () => {
  const update = (resourceUrn: string, subResource: string, description: string) =>
    gql(t, `mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`, {
      input: { description, resourceUrn, subResource, subResourceType: 'DATASET_FIELD' },
    });
  const editedFields = async (urn: string) =>
    (await gql(t, READ_DATASET, { urn })).data.dataset.editableSchemaMetadata?.editableSchemaFieldInfo ?? [];

  it('sets a column description, read back right after', async () => {
    const res = await update(HIVE, 'field_foo', 'The foo of each *event*');
    expect(res.data).toEqual({ updateDescription: true });
    expect(await editedFields(HIVE)).toContainEqual({ fieldPath: 'field_foo', description: 'The foo of each *event*' });
  });

  it('matches version 2 field paths by their plain form', async () => {
    // The Kafka sample's fields have version 2 paths; the plain path names the same column.
    expect((await update(KAFKA, 'field_foo_2', 'Plain path')).data.updateDescription).toBe(true);
    expect(await editedFields(KAFKA)).toContainEqual({ fieldPath: '[version=2.0].[type=boolean].field_foo_2', description: 'Plain path' });
    expect((await update(KAFKA, '[version=2.0].[type=boolean].field_foo_2', 'V2 path')).data.updateDescription).toBe(true);
    const fields = await editedFields(KAFKA);
    expect(fields.filter((f: any) => f.fieldPath.endsWith('field_foo_2'))).toEqual([{ fieldPath: '[version=2.0].[type=boolean].field_foo_2', description: 'V2 path' }]);
  });

  it('fails on a column the schema does not have, and writes nothing', async () => {
    const before = await editedFields(HIVE);
    const res = await update(HIVE, 'no_such_column', 'x');
    expect(res.data.updateDescription).toBeNull();
    expect(res.errors?.[0].message).toBe(`Field no_such_column does not exist in the schema of dataset ${HIVE}`);
    expect(await editedFields(HIVE)).toEqual(before);
  });

  it('fails on a dataset that does not exist', async () => {
    const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${unique('gone')},PROD)`;
    const res = await update(urn, 'field_foo', 'x');
    expect(res.errors?.[0].message).toBe(`Entity ${urn} does not exist`);
    expect((await gql(t, `{ entityExists(urn: "${urn}") }`)).data.entityExists).toBe(false);
  });

  it('sets a container description, and refuses other entity types', async () => {
    const container = DATABASE;
    const ok = await gql(t, `mutation { updateDescription(input: {description: "All the data", resourceUrn: "${container}"}) }`);
    expect(ok.data.updateDescription).toBe(true);
    expect((await gql(t, `{ container(urn: "${container}") { editableProperties { description } } }`)).data.container.editableProperties.description).toBe('All the data');
    const refused = await gql(t, `mutation { updateDescription(input: {description: "x", resourceUrn: "urn:li:corpuser:datahub"}) }`);
    expect(refused.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('mutation createTag', () => {
  it('creates a tag and answers its urn', async () => {
    const id = unique('Quality');
    const res = await gql(t, `mutation createTag($input: CreateTagInput!) { createTag(input: $input) }`, { input: { id, name: 'Quality', description: 'Checked data' } });
    expect(res.data).toEqual({ createTag: `urn:li:tag:${id}` });
    const tag = (await gql(t, `{ tag(urn: "urn:li:tag:${id}") { urn type properties { name description } } }`)).data.tag;
    expect(tag).toEqual({ urn: `urn:li:tag:${id}`, type: 'TAG', properties: { name: 'Quality', description: 'Checked data' } });
  });

  it('makes up an id when none is given, and refuses an existing one', async () => {
    const res = await gql(t, `mutation { createTag(input: {name: "Anonymous", description: "No id"}) }`);
    expect(res.data.createTag).toMatch(/^urn:li:tag:[0-9a-f-]{36}$/);
    const again = await gql(t, `mutation { createTag(input: {id: "Legacy", name: "Legacy"}) }`);
    expect(again.errors?.[0].message).toBe('This Tag already exists: urn:li:tag:Legacy');
  });
});

describe('the endpoint', () => {
  it('refuses GET and other methods with 405', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await call(t, method, `/api/graphql?query=${encodeURIComponent('{ me { corpUser { urn } } }')}`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('answers syntax and validation errors in the GraphQL error shape, with 200 as the reference does', async () => {
    const bad = await gql(t, '{ dataset(urn: ');
    expect(bad.status).toBe(200);
    expect(bad.errors?.[0].message).toMatch(/Syntax Error/);
    const unknown = await gql(t, '{ nope }');
    expect(unknown.errors?.[0].message).toMatch(/Cannot query field "nope"/);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await call(t, 'POST', '/api/graphql', '{"query": ');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });
});
