/**
 * UI-style GraphQL queries and mutations across entity types, on the reference samples: every
 * edit is read back right after it; batch edits are all or nothing.
 */
import { bootstrapCopy, gql, loadBootstrapCopy } from '../support/graphql';
import { call, eventually, startTarget, unique, type Target } from '../support/target';

const suffix = unique('ui');
const { HIVE, HDFS, KAFKA, EVENTS_BACKUP, CHART, CHART2, DASHBOARD, FLOW, JOB, SCHEMA, DATABASE, JDOE } = bootstrapCopy(suffix);

let t: Target;
beforeAll(async () => {
  t = await startTarget();
  await loadBootstrapCopy(t, suffix);
  // Search, lineage, edges and time series are index reads: wait until the indexes hold the last records.
  await eventually(async () => {
    const d = (await gql(t, `{ searchAcrossEntities(input: {types: [CONTAINER], query: "*", orFilters: [{and: [{field: "urn", values: ["${SCHEMA}"]}]}]}) { total }
      backup: dataset(urn: "${EVENTS_BACKUP}") { lineage(input: {direction: UPSTREAM}) { total } }
      hive: dataset(urn: "${HIVE}") { datasetProfiles { timestampMillis } operations { timestampMillis } } }`)).data;
    return d?.searchAcrossEntities.total === 1 && d.backup.lineage.total > 0 && d.hive.datasetProfiles.length === 2 && d.hive.operations.length === 2;
  }, 30_000);
}, 120_000);
afterAll(() => t.close());

/** Fails the test on any GraphQL error, so each step shows what went wrong. */
async function ok<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gql<T>(t, query, variables);
  expect(res.errors).toBeUndefined();
  return res.data;
}

const ENTITY_PAGE = `query getDataset($urn: String!) {
  dataset(urn: $urn) {
    urn type name origin
    platform { urn name properties { displayName type } }
    container { urn properties { name } }
    parentContainers { count containers { urn } }
    ownership { owners { owner { ... on CorpUser { urn username properties { displayName } } ... on CorpGroup { urn name } } type } lastModified { time } }
    tags { tags { tag { urn name properties { name } } associatedUrn } }
    glossaryTerms { terms { term { urn properties { name } } } }
    institutionalMemory { elements { url label } }
    status { removed }
    deprecation { deprecated note actor }
    domain { domain { urn properties { name } } }
    browsePaths { path }
    schemaMetadata { name platformUrn version hash fields { fieldPath type nativeDataType nullable tags { tags { tag { urn } } } } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } } } }
    datasetProfiles(limit: 5) { timestampMillis rowCount columnCount fieldProfiles { fieldPath uniqueCount } }
    operations(limit: 5) { operationType lastUpdatedTimestamp }
    usageStats(range: ALL) { aggregations { uniqueUserCount totalSqlQueries users { user { urn } count } fields { fieldName count } } }
    upstream: lineage(input: {direction: UPSTREAM, start: 0, count: 10}) { total relationships { type degree entity { urn type } } }
    downstream: lineage(input: {direction: DOWNSTREAM}) { total relationships { type entity { urn } } }
    owners: relationships(input: {types: ["OwnedBy"], direction: OUTGOING}) { total relationships { type direction entity { urn } } }
  }
}`;

describe('entity pages', () => {
  it('a dataset page: key fields, aspects, time series, lineage and edges', async () => {
    const ds = (await ok(ENTITY_PAGE, { urn: HIVE })).dataset;
    expect(ds).toMatchObject({ urn: HIVE, type: 'DATASET', name: `SampleHiveDataset_${suffix}`, origin: 'PROD' });
    expect(ds.platform).toMatchObject({ urn: 'urn:li:dataPlatform:hive', name: 'hive', properties: { type: 'FILE_SYSTEM' } });
    expect(ds.container.urn).toBe(SCHEMA);
    expect(ds.parentContainers).toEqual({ count: 2, containers: [{ urn: SCHEMA }, { urn: DATABASE }] });
    expect(ds.ownership.owners.map((o: any) => o.owner.urn)).toContain(JDOE);
    expect(ds.tags.tags.map((x: any) => x.tag.urn)).toContain('urn:li:tag:Legacy');
    expect(ds.status).toEqual({ removed: false });
    expect(ds.schemaMetadata.fields.length).toBeGreaterThan(0);
    expect(ds.schemaMetadata.fields[0].type).toMatch(/^[A-Z]+$/);
    expect(ds.datasetProfiles.length).toBe(2);
    expect(ds.datasetProfiles[0].timestampMillis).toBeGreaterThan(ds.datasetProfiles[1].timestampMillis);
    expect(ds.operations.length).toBe(2);
    expect(ds.usageStats.aggregations.totalSqlQueries).toBeGreaterThanOrEqual(0);
    expect(ds.upstream.relationships.map((r: any) => r.entity.urn)).toContain(HDFS);
    expect(ds.owners.relationships.map((r: any) => r.entity.urn)).toContain(JDOE);
  });

  it('charts, dashboards, users, groups, platforms, flows and jobs', async () => {
    const data = await ok(`{
      chart(urn: "${CHART}") { urn type tool chartId platform { urn } properties { name description created { time } } tags { tags { tag { urn } } }
        lineage(input: {direction: UPSTREAM}) { total } }
      dashboard(urn: "${DASHBOARD}") { urn tool dashboardId properties { name } ownership { owners { owner { ... on CorpUser { urn } } } }
        lineage(input: {direction: UPSTREAM}) { relationships { type entity { urn type } } } }
      corpUser(urn: "urn:li:corpuser:datahub") { urn type username properties { active displayName email } status }
      corpGroup(urn: "urn:li:corpGroup:jdoe") { urn type name properties { displayName email } }
      dataPlatform(urn: "urn:li:dataPlatform:kafka") { name displayName properties { datasetNameDelimiter } }
      dataFlow(urn: "${FLOW}") { orchestrator flowId cluster platform { urn } properties { name } }
      dataJob(urn: "${JOB}") { jobId dataFlow { urn } properties { name }
        inputOutput { inputDatasets { urn } outputDatasets { urn } } downstream: lineage(input: {direction: DOWNSTREAM}) { relationships { entity { urn } } } }
      glossaryTerm(urn: "urn:li:glossaryTerm:SavingAccount") { urn name hierarchicalName properties { name definition termSource } }
      glossaryNode(urn: "urn:li:glossaryNode:ClientsAndAccounts") { urn properties { name description } }
    }`);
    expect(data.chart).toMatchObject({ urn: CHART, type: 'CHART', tool: 'looker', chartId: `baz1_${suffix}`, platform: { urn: 'urn:li:dataPlatform:looker' } });
    expect(data.dashboard.lineage.relationships.map((r: any) => r.entity.urn)).toEqual(expect.arrayContaining([CHART, CHART2]));
    expect(data.corpUser).toMatchObject({ username: 'datahub', type: 'CORP_USER', status: 'ACTIVE' });
    expect(data.corpGroup).toMatchObject({ name: 'jdoe', type: 'CORP_GROUP' });
    expect(data.dataPlatform.name).toBe('kafka');
    expect(data.dataFlow).toMatchObject({ orchestrator: 'airflow', flowId: `dag_abc_${suffix}`, cluster: 'PROD', platform: { urn: 'urn:li:dataPlatform:airflow' } });
    expect(data.dataJob.dataFlow.urn).toBe(FLOW);
    expect(data.dataJob.inputOutput.outputDatasets.length).toBeGreaterThan(0);
    expect(data.dataJob.downstream.relationships.length).toBeGreaterThan(0);
    expect(data.glossaryTerm.properties.name).toBe('SavingAccount');
    expect(data.glossaryNode.properties.name).toBe('ClientsAndAccounts');
  });

  it('entity, entities, entityExists and me', async () => {
    const data = await ok(`{
      entity(urn: "${CHART}") { urn type ... on Chart { chartId } }
      entities(urns: ["${HIVE}", "${JDOE}", "urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)"]) { urn type }
      yes: entityExists(urn: "${HIVE}")
      no: entityExists(urn: "urn:li:tag:nothing_here")
      me { corpUser { urn } platformPrivileges { manageTags } }
    }`);
    expect(data.entity).toEqual({ urn: CHART, type: 'CHART', chartId: `baz1_${suffix}` });
    expect(data.entities).toEqual([{ urn: HIVE, type: 'DATASET' }, { urn: JDOE, type: 'CORP_USER' }]);
    expect(data.yes).toBe(true);
    expect(data.no).toBe(false);
    expect(data.me.platformPrivileges.manageTags).toBe(true);
  });
});

describe('search', () => {
  it('searchAcrossEntities with facets and orFilters, search, autocomplete, browse', async () => {
    const data = await eventually(async () => {
      const d = await ok(`{
        all: searchAcrossEntities(input: {query: "*", start: 0, count: 5}) { start count total searchResults { entity { urn type } } facets { field aggregations { value count } } }
        hive: searchAcrossEntities(input: {types: [DATASET], query: "*", orFilters: [{and: [{field: "platform", values: ["urn:li:dataPlatform:hive"]}]}]}) { total searchResults { entity { urn } } }
        one: search(input: {type: DATASET, query: "SampleHiveDataset", count: 100}) { total searchResults { entity { urn } matchedFields { name value } } }
        ac: autoComplete(input: {type: DATASET, query: "Sample"}) { query suggestions entities { urn } }
        acm: autoCompleteForMultiple(input: {query: "Sample"}) { suggestions { type suggestions } }
        root: browse(input: {type: DATASET, path: []}) { total groups { name count } metadata { path totalNumEntities } }
        paths: browsePaths(input: {type: DATASET, urn: "${KAFKA}"}) { path }
        counts: getEntityCounts(input: {types: [DATASET, CHART]}) { counts { entityType count } }
      }`);
      return d.hive.total >= 4 ? d : undefined;
    });
    expect(data.all.total).toBeGreaterThan(20);
    expect(data.all.searchResults).toHaveLength(5);
    expect(data.all.facets.map((f: any) => f.field)).toContain('_entityType');
    expect(data.hive.searchResults.every((r: any) => r.entity.urn.includes('dataPlatform:hive'))).toBe(true);
    expect(data.one.searchResults.map((r: any) => r.entity.urn)).toContain(HIVE);
    expect(data.ac.suggestions.length).toBeGreaterThan(0);
    expect(data.acm.suggestions[0].type).toBe('DATASET');
    expect(data.root.groups.length).toBeGreaterThan(0);
    expect(data.paths.length).toBeGreaterThan(0);
    expect(data.counts.counts[1].count).toBeGreaterThanOrEqual(2);
    expect(data.counts.counts).toEqual([
      { entityType: 'DATASET', count: expect.any(Number) },
      { entityType: 'CHART', count: expect.any(Number) },
    ]);
  });

  it('scrollAcrossEntities as the SDK pages through urns', async () => {
    const query = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $batchSize: Int!, $scrollId: String) {
      scrollAcrossEntities(input: {query: $query, count: $batchSize, scrollId: $scrollId, types: $types, orFilters: $orFilters,
        searchFlags: {skipHighlighting: true, skipAggregates: true}}) { nextScrollId searchResults { entity { urn } } }
    }`;
    const urns: string[] = [];
    let scrollId: string | null = null;
    do {
      const page: any = (await ok(query, { types: ['DATASET'], query: '*', orFilters: [], batchSize: 2, scrollId })).scrollAcrossEntities;
      urns.push(...page.searchResults.map((r: any) => r.entity.urn));
      scrollId = page.nextScrollId;
    } while (scrollId);
    expect(new Set(urns).size).toBe(urns.length);
    expect(urns).toContain(HIVE);
  });

  it('searchAcrossLineage walks several hops', async () => {
    const data = await ok(`{ searchAcrossLineage(input: {urn: "${KAFKA}", direction: DOWNSTREAM, query: "*", count: 50}) { total searchResults { degree entity { urn } paths { path { urn } } } } }`);
    const results = data.searchAcrossLineage.searchResults;
    // Kafka → HDFS → Hive in the samples.
    expect(results.find((r: any) => r.entity.urn === HDFS)?.degree).toBe(1);
    const hive = results.find((r: any) => r.entity.urn === HIVE);
    expect(hive.degree).toBe(2);
    expect(hive.paths).toEqual([{ path: [{ urn: KAFKA }, { urn: HDFS }, { urn: HIVE }] }]);
  });

  it('lists users, groups and root glossary entities', async () => {
    const data = await ok(`{
      listUsers(input: {start: 0, count: 1000}) { total users { urn } }
      listGroups(input: {start: 0, count: 10}) { total groups { urn } }
      getRootGlossaryNodes(input: {start: 0, count: 1000}) { total nodes { urn } }
      getRootGlossaryTerms(input: {start: 0, count: 10}) { total terms { urn } }
    }`);
    expect(data.listUsers.users.map((u: any) => u.urn)).toEqual(expect.arrayContaining(['urn:li:corpuser:datahub', JDOE]));
    expect(data.listGroups.total).toBeGreaterThanOrEqual(2);
    expect(data.getRootGlossaryNodes.nodes.map((n: any) => n.urn)).toContain('urn:li:glossaryNode:ClientsAndAccounts');
    expect(data.getRootGlossaryTerms.total).toBeGreaterThanOrEqual(0);
  });
});

describe('edits of labels, owners, links and status', () => {
  it('adds and removes tags on an entity and on a schema field', async () => {
    await ok(`mutation { addTag(input: {tagUrn: "urn:li:tag:NeedsDocumentation", resourceUrn: "${CHART}"}) }`);
    await ok(`mutation { addTags(input: {tagUrns: ["urn:li:tag:Legacy"], resourceUrn: "${KAFKA}", subResourceType: DATASET_FIELD, subResource: "field_bar"}) }`);
    const after = await ok(`{ chart(urn: "${CHART}") { tags { tags { tag { urn } } } }
      dataset(urn: "${KAFKA}") { editableSchemaMetadata { editableSchemaFieldInfo { fieldPath tags { tags { tag { urn } } } } } } }`);
    expect(after.chart.tags.tags.map((x: any) => x.tag.urn)).toContain('urn:li:tag:NeedsDocumentation');
    expect(after.dataset.editableSchemaMetadata.editableSchemaFieldInfo).toContainEqual({
      fieldPath: '[version=2.0].[type=boolean].field_bar',
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
    });
    await ok(`mutation { removeTag(input: {tagUrn: "urn:li:tag:NeedsDocumentation", resourceUrn: "${CHART}"}) }`);
    expect((await ok(`{ chart(urn: "${CHART}") { tags { tags { tag { urn } } } } }`)).chart.tags.tags.map((x: any) => x.tag.urn)).not.toContain('urn:li:tag:NeedsDocumentation');
  });

  it('batch edits are all or nothing', async () => {
    const missing = 'urn:li:dataset:(urn:li:dataPlatform:hive,not_there,PROD)';
    const res = await gql(t, `mutation { batchAddTags(input: {tagUrns: ["urn:li:tag:Legacy"], resources: [{resourceUrn: "${HDFS}"}, {resourceUrn: "${missing}"}]}) }`);
    expect(res.errors?.[0].message).toBe(`Entity ${missing} does not exist`);
    expect((await ok(`{ dataset(urn: "${HDFS}") { tags { tags { tag { urn } } } } }`)).dataset.tags).toBeNull();
    await ok(`mutation { batchAddTags(input: {tagUrns: ["urn:li:tag:Legacy"], resources: [{resourceUrn: "${HDFS}"}, {resourceUrn: "${CHART}"}]}) }`);
    const both = await ok(`{ dataset(urn: "${HDFS}") { tags { tags { tag { urn } } } } chart(urn: "${CHART}") { tags { tags { tag { urn } } } } }`);
    expect(both.dataset.tags.tags).toEqual([{ tag: { urn: 'urn:li:tag:Legacy' } }]);
    expect(both.chart.tags.tags.map((x: any) => x.tag.urn)).toContain('urn:li:tag:Legacy');
    await ok(`mutation { batchRemoveTags(input: {tagUrns: ["urn:li:tag:Legacy"], resources: [{resourceUrn: "${HDFS}"}]}) }`);
    expect((await ok(`{ dataset(urn: "${HDFS}") { tags { tags { tag { urn } } } } }`)).dataset.tags.tags).toEqual([]);
  });

  it('refuses tags that do not exist, and fields a schema does not have', async () => {
    const noTag = await gql(t, `mutation { addTag(input: {tagUrn: "urn:li:tag:Nope", resourceUrn: "${HIVE}"}) }`);
    expect(noTag.errors?.[0].message).toBe('Entity urn:li:tag:Nope does not exist');
    const noField = await gql(t, `mutation { addTerm(input: {termUrn: "urn:li:glossaryTerm:SavingAccount", resourceUrn: "${HIVE}", subResourceType: DATASET_FIELD, subResource: "nope"}) }`);
    expect(noField.errors?.[0].message).toBe(`Field nope does not exist in the schema of dataset ${HIVE}`);
  });

  it('glossary terms on entities and fields', async () => {
    await ok(`mutation { addTerms(input: {termUrns: ["urn:li:glossaryTerm:SavingAccount", "urn:li:glossaryTerm:AccountBalance"], resourceUrn: "${HIVE}"}) }`);
    await ok(`mutation { batchAddTerms(input: {termUrns: ["urn:li:glossaryTerm:CustomerAccount"], resources: [{resourceUrn: "${HIVE}", subResourceType: DATASET_FIELD, subResource: "field_bar"}]}) }`);
    await ok(`mutation { removeTerm(input: {termUrn: "urn:li:glossaryTerm:AccountBalance", resourceUrn: "${HIVE}"}) }`);
    const ds = (await ok(ENTITY_PAGE, { urn: HIVE })).dataset;
    expect(ds.glossaryTerms.terms.map((x: any) => x.term.urn)).toEqual(['urn:li:glossaryTerm:SavingAccount']);
    const field = ds.editableSchemaMetadata.editableSchemaFieldInfo.find((f: any) => f.fieldPath === 'field_bar');
    expect(field.glossaryTerms.terms).toEqual([{ term: { urn: 'urn:li:glossaryTerm:CustomerAccount' } }]);
    await ok(`mutation { batchRemoveTerms(input: {termUrns: ["urn:li:glossaryTerm:CustomerAccount"], resources: [{resourceUrn: "${HIVE}", subResourceType: DATASET_FIELD, subResource: "field_bar"}]}) }`);
  });

  it('owners', async () => {
    await ok(`mutation { addOwner(input: {ownerUrn: "urn:li:corpGroup:bfoo", ownerEntityType: CORP_GROUP, type: BUSINESS_OWNER, resourceUrn: "${DASHBOARD}"}) }`);
    await ok(`mutation { batchAddOwners(input: {owners: [{ownerUrn: "urn:li:corpuser:datahub", ownerEntityType: CORP_USER}], resources: [{resourceUrn: "${DASHBOARD}"}, {resourceUrn: "${CHART}"}]}) }`);
    const owners = async (urn: string, field: string) =>
      (await ok(`{ ${field}(urn: "${urn}") { ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn } } type } } } }`))[field].ownership.owners;
    expect(await owners(DASHBOARD, 'dashboard')).toEqual(expect.arrayContaining([
      { owner: { urn: 'urn:li:corpGroup:bfoo' }, type: 'BUSINESS_OWNER' },
      { owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' },
    ]));
    await ok(`mutation { removeOwner(input: {ownerUrn: "urn:li:corpGroup:bfoo", resourceUrn: "${DASHBOARD}"}) }`);
    await ok(`mutation { batchRemoveOwners(input: {ownerUrns: ["urn:li:corpuser:datahub"], resources: [{resourceUrn: "${CHART}"}]}) }`);
    expect((await owners(DASHBOARD, 'dashboard')).map((o: any) => o.owner.urn)).not.toContain('urn:li:corpGroup:bfoo');
    expect(await owners(CHART, 'chart')).toEqual([]);
    const noOwner = await gql(t, `mutation { addOwner(input: {ownerUrn: "urn:li:corpuser:ghost", ownerEntityType: CORP_USER, resourceUrn: "${CHART}"}) }`);
    expect(noOwner.errors?.[0].message).toBe('Entity urn:li:corpuser:ghost does not exist');
  });

  it('owners apply to whole entities: a schema field resource is refused and nothing is written', async () => {
    const OWNERS = `query($urn: String!) { dataset(urn: $urn) { ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn } } type } } } }`;
    const owners = async (urn: string) => (await ok(OWNERS, { urn })).dataset.ownership;
    const before = { hdfs: await owners(HDFS), kafka: await owners(KAFKA), hive: await owners(HIVE) };
    expect(before.hive.owners.map((o: any) => o.owner.urn)).toContain(JDOE);
    const add = await gql(t, `mutation { batchAddOwners(input: {owners: [{ownerUrn: "urn:li:corpuser:datahub", ownerEntityType: CORP_USER}],
      resources: [{resourceUrn: "${HDFS}"}, {resourceUrn: "${KAFKA}", subResourceType: DATASET_FIELD, subResource: "field_bar"}]}) }`);
    expect(add.data.batchAddOwners).toBeNull();
    expect(add.errors?.[0]).toMatchObject({
      message: `Owners apply to whole entities; schema fields have no owners (subResource 'field_bar' on ${KAFKA})`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const remove = await gql(t, `mutation { batchRemoveOwners(input: {ownerUrns: ["${JDOE}"], resources: [{resourceUrn: "${HIVE}", subResourceType: DATASET_FIELD, subResource: "field_foo"}]}) }`);
    expect(remove.errors?.[0]).toMatchObject({
      message: `Owners apply to whole entities; schema fields have no owners (subResource 'field_foo' on ${HIVE})`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const typeOnly = await gql(t, `mutation { batchRemoveOwners(input: {ownerUrns: ["${JDOE}"], resources: [{resourceUrn: "${HIVE}", subResourceType: DATASET_FIELD}]}) }`);
    expect(typeOnly.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect({ hdfs: await owners(HDFS), kafka: await owners(KAFKA), hive: await owners(HIVE) }).toEqual(before);
    // The single-resource inputs have no subResource at all, as in the reference.
    const single = await gql(t, `mutation { addOwner(input: {ownerUrn: "urn:li:corpuser:datahub", ownerEntityType: CORP_USER, resourceUrn: "${KAFKA}", subResource: "field_bar"}) }`);
    expect(single.errors?.[0].message).toMatch(/"subResource" is not defined by type "AddOwnerInput"/);
  });

  it('links, deprecation, domains and soft deletion', async () => {
    await ok(`mutation { addLink(input: {linkUrl: "https://runbook.example.com", label: "Runbook", resourceUrn: "${DASHBOARD}"}) }`);
    await ok(`mutation { updateDeprecation(input: {urn: "${DASHBOARD}", deprecated: true, note: "Use the new one"}) }`);
    const domain = await ok(`mutation { createDomain(input: {id: "${unique('marketing')}", name: "Marketing", description: "Campaigns"}) }`);
    await ok(`mutation { setDomain(entityUrn: "${DASHBOARD}", domainUrn: "${domain.createDomain}") }`);
    const page = (await ok(`{ dashboard(urn: "${DASHBOARD}") { institutionalMemory { elements { url label } } deprecation { deprecated note }
      domain { domain { urn properties { name description } } } } }`)).dashboard;
    expect(page.institutionalMemory.elements).toEqual([{ url: 'https://runbook.example.com', label: 'Runbook' }]);
    expect(page.deprecation).toEqual({ deprecated: true, note: 'Use the new one' });
    expect(page.domain.domain).toEqual({ urn: domain.createDomain, properties: { name: 'Marketing', description: 'Campaigns' } });

    await ok(`mutation { removeLink(input: {linkUrl: "https://runbook.example.com", resourceUrn: "${DASHBOARD}"}) }`);
    await ok(`mutation { batchUpdateDeprecation(input: {deprecated: false, resources: [{resourceUrn: "${DASHBOARD}"}]}) }`);
    await ok(`mutation { unsetDomain(entityUrn: "${DASHBOARD}") }`);
    await ok(`mutation { batchSetDomain(input: {domainUrn: "${domain.createDomain}", resources: [{resourceUrn: "${CHART}"}]}) }`);
    const after = await ok(`{ dashboard(urn: "${DASHBOARD}") { institutionalMemory { elements { url } } deprecation { deprecated } domain { domain { urn } } }
      chart(urn: "${CHART}") { domain { domain { urn } } } }`);
    expect(after.dashboard).toEqual({ institutionalMemory: { elements: [] }, deprecation: { deprecated: false }, domain: null });
    expect(after.chart.domain.domain.urn).toBe(domain.createDomain);
    // Lists are index reads, which follow writes shortly after.
    await eventually(async () => (await ok(`{ listDomains(input: {start: 0, count: 100}) { domains { urn } } }`)).listDomains.domains.some((d: any) => d.urn === domain.createDomain));

    await ok(`mutation { batchUpdateSoftDeleted(input: {urns: ["${DASHBOARD}"], deleted: true}) }`);
    expect((await ok(`{ dashboard(urn: "${DASHBOARD}") { status { removed } } }`)).dashboard.status.removed).toBe(true);
    await ok(`mutation { batchUpdateSoftDeleted(input: {urns: ["${DASHBOARD}"], deleted: false}) }`);
    await ok(`mutation { deleteDomain(urn: "${domain.createDomain}") }`);
    expect((await ok(`{ domain(urn: "${domain.createDomain}") { urn } }`)).domain).toBeNull();
  });

  it('updateDatasets, updateChart and updateDashboard', async () => {
    const res = await ok(`mutation { updateDatasets(input: [
      {urn: "${HDFS}", update: {editableProperties: {description: "HDFS copy"}, deprecation: {deprecated: true, note: "old"}}},
      {urn: "${KAFKA}", update: {tags: {tags: [{tag: {urn: "urn:li:tag:Legacy", name: "Legacy"}}]}, ownership: {owners: [{owner: "${JDOE}", type: DATA_STEWARD}]}}}
    ]) { urn editableProperties { description } deprecation { deprecated } tags { tags { tag { urn } } } ownership { owners { type } } } }`);
    expect(res.updateDatasets[0]).toMatchObject({ urn: HDFS, editableProperties: { description: 'HDFS copy' }, deprecation: { deprecated: true } });
    expect(res.updateDatasets[1]).toMatchObject({ urn: KAFKA, tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] }, ownership: { owners: [{ type: 'DATA_STEWARD' }] } });
    const chart = await ok(`mutation { updateChart(urn: "${CHART}", input: {editableProperties: {description: "Bars"}}) { editableProperties { description } } }`);
    expect(chart.updateChart.editableProperties.description).toBe('Bars');
    const dash = await ok(`mutation { updateDashboard(urn: "${DASHBOARD}", input: {editableProperties: {description: "Board"}}) { editableProperties { description } } }`);
    expect(dash.updateDashboard.editableProperties.description).toBe('Board');
  });
});

describe('tags, glossary, groups, users, tests, operations and lineage', () => {
  it('tag lifecycle: create, update, color, delete (with its references)', async () => {
    const urn = (await ok(`mutation { createTag(input: {id: "${unique('pii')}", name: "PII", description: "Personal data"}) }`)).createTag;
    await ok(`mutation { updateTag(urn: "${urn}", input: {urn: "${urn}", name: "PII data", description: "Personal"}) { urn } }`);
    await ok(`mutation { setTagColor(urn: "${urn}", colorHex: "#ff0000") }`);
    expect((await ok(`{ tag(urn: "${urn}") { properties { name description colorHex } ownership { owners { type } } } }`)).tag).toEqual({
      properties: { name: 'PII data', description: 'Personal', colorHex: '#ff0000' },
      ownership: { owners: [{ type: 'TECHNICAL_OWNER' }] },
    });
    await ok(`mutation { addTag(input: {tagUrn: "${urn}", resourceUrn: "${HDFS}"}) }`);
    // References are found through the graph index, which follows writes shortly after.
    await eventually(async () => (await ok(`{ tag(urn: "${urn}") { relationships(input: {types: ["TaggedWith"], direction: INCOMING}) { total } } }`)).tag.relationships.total === 1);
    await ok(`mutation { deleteTag(urn: "${urn}") }`);
    expect((await ok(`{ tag(urn: "${urn}") { urn } }`)).tag).toBeNull();
    // As in the reference, deleting the tag also takes it off the entities it was on.
    expect((await ok(`{ dataset(urn: "${HDFS}") { tags { tags { tag { urn } } } } }`)).dataset.tags.tags.map((x: any) => x.tag.urn)).not.toContain(urn);
  });

  it('glossary lifecycle', async () => {
    const node = (await ok(`mutation { createGlossaryNode(input: {id: "${unique('Finance')}", name: "Finance", description: "Money"}) }`)).createGlossaryNode;
    const term = (await ok(`mutation { createGlossaryTerm(input: {id: "${unique('Revenue')}", name: "Revenue", description: "Income", parentNode: "${node}"}) }`)).createGlossaryTerm;
    await ok(`mutation { updateName(input: {urn: "${term}", name: "Gross revenue"}) }`);
    await ok(`mutation { addRelatedTerms(input: {urn: "${term}", termUrns: ["urn:li:glossaryTerm:AccountBalance"], relationshipType: isA}) }`);
    const read = (await ok(`{ glossaryTerm(urn: "${term}") { properties { name definition } parentNodes { count nodes { urn properties { name } } } } }`)).glossaryTerm;
    expect(read.properties).toEqual({ name: 'Gross revenue', definition: 'Income' });
    // Edges are index reads, which follow writes shortly after.
    await eventually(async () => {
      const edges = (await ok(`{ glossaryTerm(urn: "${term}") { relationships(input: {types: ["IsA"], direction: OUTGOING}) { relationships { entity { urn } } } } }`)).glossaryTerm.relationships;
      return edges.relationships.some((r: any) => r.entity.urn === 'urn:li:glossaryTerm:AccountBalance');
    });
    expect(read.parentNodes).toEqual({ count: 1, nodes: [{ urn: node, properties: { name: 'Finance' } }] });
    await ok(`mutation { removeRelatedTerms(input: {urn: "${term}", termUrns: ["urn:li:glossaryTerm:AccountBalance"], relationshipType: isA}) }`);
    await ok(`mutation { updateParentNode(input: {resourceUrn: "${term}"}) }`);
    expect((await ok(`{ glossaryTerm(urn: "${term}") { parentNodes { count } } }`)).glossaryTerm.parentNodes.count).toBe(0);
    await ok(`mutation { deleteGlossaryEntity(urn: "${term}") }`);
    expect((await ok(`{ glossaryTerm(urn: "${term}") { urn } }`)).glossaryTerm).toBeNull();
  });

  it('groups and users', async () => {
    const group = (await ok(`mutation { createGroup(input: {id: "${unique('analysts')}", name: "Analysts", description: "Numbers"}) }`)).createGroup;
    await ok(`mutation { addGroupMembers(input: {groupUrn: "${group}", userUrns: ["${JDOE}"]}) }`);
    const members = async () =>
      (await ok(`{ corpGroup(urn: "${group}") { relationships(input: {types: ["IsMemberOfNativeGroup"], direction: INCOMING}) { total } } }`)).corpGroup.relationships.total;
    expect(await eventually(async () => ((await members()) === 1 ? 1 : undefined))).toBe(1);
    await ok(`mutation { updateCorpGroupProperties(urn: "${group}", input: {slack: "#analysts"}) { urn } }`);
    await ok(`mutation { updateCorpUserProperties(urn: "${JDOE}", input: {title: "Analyst", teams: ["numbers"]}) { urn } }`);
    const read = await ok(`{ corpGroup(urn: "${group}") { properties { displayName description } editableProperties { slack } }
      corpUser(urn: "${JDOE}") { editableProperties { title teams } } }`);
    expect(read.corpGroup).toEqual({ properties: { displayName: 'Analysts', description: 'Numbers' }, editableProperties: { slack: '#analysts' } });
    expect(read.corpUser.editableProperties).toEqual({ title: 'Analyst', teams: ['numbers'] });
    await ok(`mutation { removeGroupMembers(input: {groupUrn: "${group}", userUrns: ["${JDOE}"]}) }`);
    await ok(`mutation { removeGroup(urn: "${group}") }`);
    expect((await ok(`{ corpGroup(urn: "${group}") { urn } }`)).corpGroup).toBeNull();
    const user = `urn:li:corpuser:${unique('leaver')}`;
    await ok(`mutation { updateCorpUserProperties(urn: "${JDOE}", input: {aboutMe: "Still here"}) { urn } }`);
    expect((await gql(t, `mutation { removeUser(urn: "${user}") }`)).errors?.[0].message).toBe(`Entity ${user} does not exist`);
  });

  it('metadata tests', async () => {
    const urn = (await ok(`mutation { createTest(input: {id: "${unique('has_owner')}", name: "Has owner", category: "Governance", definition: {json: "{}"}}) }`)).createTest;
    await ok(`mutation { updateTest(urn: "${urn}", input: {name: "Has an owner", category: "Governance", description: "Every dataset", definition: {json: "{\\"on\\": {}}"}}) }`);
    expect((await ok(`{ test(urn: "${urn}") { name category description definition { json } } }`)).test).toEqual({
      name: 'Has an owner',
      category: 'Governance',
      description: 'Every dataset',
      definition: { json: '{"on": {}}' },
    });
    const listed = await eventually(async () => {
      const l = (await ok(`{ listTests(input: {start: 0, count: 50}) { tests { urn } } }`)).listTests;
      return l.tests.some((x: any) => x.urn === urn) ? l : undefined;
    });
    expect(listed.tests.map((x: any) => x.urn)).toContain(urn);
    await ok(`mutation { deleteTest(urn: "${urn}") }`);
    expect((await ok(`{ test(urn: "${urn}") { urn } }`)).test).toBeNull();
  });

  it("an entity's testResults, once an evaluation is pushed", async () => {
    const definition = (origin: string) => JSON.stringify({ on: { types: ['dataset'] }, rules: { property: 'datasetKey.origin', operator: 'equals', values: [origin] } });
    const create = `mutation($id: String!, $name: String!, $json: String!) { createTest(input: {id: $id, name: $name, category: "Contract", definition: {json: $json}}) }`;
    const isProd = (await ok(create, { id: unique('is_prod'), name: 'Is PROD', json: definition('PROD') })).createTest;
    const isDev = (await ok(create, { id: unique('is_dev'), name: 'Is DEV', json: definition('DEV') })).createTest;
    const READ = `query($urn: String!) { dataset(urn: $urn) { testResults { passing { test { urn name } type } failing { test { urn name } type } } } }`;
    expect((await ok(READ, { urn: HIVE })).dataset.testResults).toBeNull();
    const evaluated = await call(t, 'POST', '/test?action=evaluate', { urn: HIVE, testUrns: [isProd, isDev], shouldPush: true });
    expect(evaluated.status).toBe(200);
    expect(evaluated.body.value).toEqual({ passing: [{ test: isProd, type: 'SUCCESS' }], failing: [{ test: isDev, type: 'FAILURE' }] });
    expect((await ok(READ, { urn: HIVE })).dataset.testResults).toEqual({
      passing: [{ test: { urn: isProd, name: 'Is PROD' }, type: 'SUCCESS' }],
      failing: [{ test: { urn: isDev, name: 'Is DEV' }, type: 'FAILURE' }],
    });
  });

  it('reportOperation and updateLineage', async () => {
    expect((await ok(`mutation { reportOperation(input: {urn: "${HDFS}", operationType: INSERT, sourceType: DATA_PLATFORM, numAffectedRows: 10, timestampMillis: 1700000000000}) }`)).reportOperation).toBe(HDFS);
    // Operations are read from the time-series index, which follows writes shortly after.
    const operations = await eventually(async () => {
      const ops = (await ok(`{ dataset(urn: "${HDFS}") { operations(limit: 1) { operationType numAffectedRows lastUpdatedTimestamp } } }`)).dataset.operations;
      return ops.length > 0 ? ops : undefined;
    });
    expect(operations).toEqual([{ operationType: 'INSERT', numAffectedRows: 10, lastUpdatedTimestamp: 1700000000000 }]);
    await ok(`mutation { updateLineage(input: {edgesToAdd: [{upstreamUrn: "${HDFS}", downstreamUrn: "${CHART}"}], edgesToRemove: []}) }`);
    const upstream = async () =>
      (await ok(`{ chart(urn: "${CHART}") { lineage(input: {direction: UPSTREAM}) { relationships { entity { urn } } } } }`)).chart.lineage.relationships.map((r: any) => r.entity.urn);
    // Lineage is read from the graph index, which follows writes shortly after.
    await eventually(async () => (await upstream()).includes(HDFS));
    await ok(`mutation { updateLineage(input: {edgesToAdd: [], edgesToRemove: [{upstreamUrn: "${HDFS}", downstreamUrn: "${CHART}"}]}) }`);
    await eventually(async () => !(await upstream()).includes(HDFS));
    const refused = await gql(t, `mutation { updateLineage(input: {edgesToAdd: [{upstreamUrn: "${CHART}", downstreamUrn: "${JDOE}"}], edgesToRemove: []}) }`);
    expect(refused.errors?.[0].message).toBe('Lineage from chart to corpuser is not supported');
  });
});

describe('limits', () => {
  it('refuses queries that are too deep or too costly', async () => {
    const deep = `{ dataset(urn: "${HIVE}") { ${'container { '.repeat(25)}urn${' }'.repeat(25)} } }`;
    const tooDeep = await gql(t, deep);
    expect(tooDeep.status).toBe(200);
    expect(tooDeep.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    const costly = await gql(t, `{ searchAcrossEntities(input: {query: "*", count: 1000}) { searchResults { entity { urn
      ... on Dataset { ${Array.from({ length: 20 }, (_, i) => `l${i}: lineage(input: {direction: UPSTREAM, count: 1000}) { total relationships { type } }`).join(' ')} } } } } }`);
    expect(costly.errors?.[0].message).toMatch(/Query cost \d+ exceeds the limit/);
  });

  it('caps page sizes', async () => {
    // `count` is the page size a search used (the reference's pageSize), so the cap shows without 1000 entities.
    const res = await ok(`{
      big: searchAcrossEntities(input: {query: "*", count: 5000}) { count }
      one: search(input: {type: DATASET, query: "*", count: 5000}) { count }
      small: searchAcrossEntities(input: {query: "*", count: 3}) { count searchResults { entity { urn } } }
      usual: searchAcrossEntities(input: {query: "*"}) { count }
      lineage: searchAcrossLineage(input: {urn: "${KAFKA}", direction: DOWNSTREAM, query: "*", count: 5000}) { count }
    }`);
    expect(res.big.count).toBe(1000);
    expect(res.one.count).toBe(1000);
    expect(res.small).toMatchObject({ count: 3, searchResults: [{}, {}, {}] });
    expect(res.usual.count).toBe(10);
    expect(res.lineage.count).toBe(1000);
  });
});
