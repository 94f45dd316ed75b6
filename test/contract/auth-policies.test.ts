/**
 * Policies decide: the defaults (root and admins everything, editors metadata, every user reads
 * and documents), and policies an administrator adds, for users, groups or all users, on all
 * resources or some; column edits need the column privileges of the columns' changed parts.
 */
import { AUTH_ENV, bearer, createToken, createUser, SYSTEM } from '../support/auth';
import { bootstrapCopy, loadBootstrapCopy } from '../support/graphql';
import { call, enc, startEmbeddedTarget, type Target } from '../support/target';

let t: Target;
let reader: string;
let readerHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;

const { HIVE, KAFKA, HDFS } = bootstrapCopy('policies');
const TAG = 'urn:li:tag:Legacy';
const gql = (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/api/graphql', { query, variables }, headers);
const addTag = (headers: Record<string, string>, resourceUrn: string) => gql(headers, 'mutation($i: TagAssociationInput!) { addTag(input: $i) }', { i: { tagUrn: TAG, resourceUrn } });
const POLICY_FIELDS = 'urn name type state privileges editable actors { users groups allUsers resourceOwners } resources { allResources resources filter { criteria { field condition values { value } } } }';

beforeAll(async () => {
  t = await startEmbeddedTarget(AUTH_ENV);
  await loadBootstrapCopy({ ...t, authHeaders: SYSTEM }, 'policies');
  reader = await createUser(t, 'pol_reader', 'reader-password');
  readerHeaders = bearer((await createToken(t, reader, SYSTEM)).token);
  adminHeaders = bearer((await createToken(t, await createUser(t, 'pol_admin', 'admin-password', 'Admin'), SYSTEM)).token);
}, 120_000);
afterAll(() => t?.close());

describe('default policies', () => {
  it('are installed once, listed to policy managers, and the non-editable ones stay', async () => {
    const list = await gql(adminHeaders, `{ listPolicies(input: {start: 0, count: 50}) { total policies { ${POLICY_FIELDS} } } }`);
    const names = list.body.data.listPolicies.policies.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['Root User - All Platform Privileges', 'Admins - Platform Policy', 'Editors - Metadata Policy', 'All Users - View and Document']));
    const root = list.body.data.listPolicies.policies.find((p: { name: string }) => p.name === 'Root User - All Platform Privileges');
    expect(root).toMatchObject({ type: 'PLATFORM', state: 'ACTIVE', editable: false, actors: { users: ['urn:li:corpuser:datahub'] } });
    expect(root.privileges).toEqual(expect.arrayContaining(['MANAGE_POLICIES', 'MANAGE_ACCESS_TOKENS', 'RESTORE_INDICES']));
    const removed = await gql(adminHeaders, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: root.urn });
    expect(removed.body.errors[0].message).toMatch(/cannot be changed or removed/);
  });

  it("let the root user, with the environment's password, do everything", async () => {
    const login = await call(t, 'POST', '/logIn', { username: 'datahub', password: AUTH_ENV.AUTH_ROOT_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = (login.headers.getSetCookie() as string[]).map((c) => c.split(';')[0]).join('; ');
    const me = await gql({ Cookie: cookie }, '{ me { corpUser { urn } platformPrivileges { managePolicies manageIdentities generatePersonalAccessTokens manageTags } } }');
    expect(me.body.data.me).toEqual({ corpUser: { urn: 'urn:li:corpuser:datahub' }, platformPrivileges: { managePolicies: true, manageIdentities: true, generatePersonalAccessTokens: true, manageTags: true } });
    expect((await call(t, 'POST', '/operations?action=getIndexSizes', {}, { Cookie: cookie })).status).toBe(401);
  });

  it('let every user read and document, and show them their privileges', async () => {
    const me = await gql(readerHeaders, '{ me { platformPrivileges { managePolicies generatePersonalAccessTokens } } }');
    expect(me.body.data.me.platformPrivileges).toEqual({ managePolicies: false, generatePersonalAccessTokens: false });
    const granted = await gql(readerHeaders, 'query($a: String!, $r: String!) { getGrantedPrivileges(input: {actorUrn: $a, resourceSpec: {resourceType: DATASET, resourceUrn: $r}}) { privileges } }', { a: reader, r: HIVE });
    expect(granted.body.data.getGrantedPrivileges.privileges.sort()).toEqual(['EDIT_DATASET_COL_DESCRIPTION', 'EDIT_ENTITY_DOCS', 'VIEW_ENTITY_PAGE']);
  });
});

describe('column edits', () => {
  it('need the privilege of the part of the column that changes', async () => {
    const describe = await gql(readerHeaders, 'mutation($i: DescriptionUpdateInput!) { updateDescription(input: $i) }', { i: { description: 'documented', resourceUrn: HIVE, subResource: 'field_foo', subResourceType: 'DATASET_FIELD' } });
    expect(describe.body).toMatchObject({ data: { updateDescription: true } });
    const tag = await gql(readerHeaders, 'mutation($i: TagAssociationInput!) { addTag(input: $i) }', { i: { tagUrn: TAG, resourceUrn: HIVE, subResource: 'field_foo', subResourceType: 'DATASET_FIELD' } });
    expect(tag.status).toBe(403);
    expect(tag.body.errors[0].message).toMatch(/EDIT_DATASET_COL_TAGS/);
    const stored = await call(t, 'GET', `/entitiesV2/${enc(HIVE)}?aspects=List(editableSchemaMetadata)`, undefined, SYSTEM);
    const info = stored.body.aspects.editableSchemaMetadata.value.editableSchemaFieldInfo.find((f: { fieldPath: string }) => f.fieldPath === 'field_foo');
    expect(info).toMatchObject({ description: 'documented' });
    expect(info.globalTags).toBeUndefined();
  });
});

describe('policies made by an administrator', () => {
  const grant = (extra: Record<string, unknown>) => ({
    type: 'METADATA',
    name: 'reader tags one dataset',
    state: 'ACTIVE',
    privileges: ['EDIT_ENTITY_TAGS'],
    actors: { users: [reader], resourceOwners: false, allUsers: false, allGroups: false },
    resources: { resources: [HIVE], allResources: false },
    ...extra,
  });

  it('grant privileges to a user on the resources they select, and stop when inactive or removed', async () => {
    expect((await addTag(readerHeaders, HIVE)).status).toBe(403);
    expect((await gql(readerHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: grant({}) })).status).toBe(403);
    const created = await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: grant({}) });
    const urn = created.body.data.createPolicy;
    expect(urn).toMatch(/^urn:li:dataHubPolicy:/);
    expect((await addTag(readerHeaders, HIVE)).body).toMatchObject({ data: { addTag: true } });
    expect((await addTag(readerHeaders, KAFKA)).status).toBe(403);

    await gql(adminHeaders, 'mutation($u: String!, $i: PolicyUpdateInput!) { updatePolicy(urn: $u, input: $i) }', { u: urn, i: grant({ state: 'INACTIVE' }) });
    expect((await addTag(readerHeaders, HIVE)).status).toBe(403);
    await gql(adminHeaders, 'mutation($u: String!, $i: PolicyUpdateInput!) { updatePolicy(urn: $u, input: $i) }', { u: urn, i: grant({ resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'], condition: 'EQUALS' }] } } }) });
    expect((await addTag(readerHeaders, KAFKA)).body).toMatchObject({ data: { addTag: true } });

    expect((await gql(adminHeaders, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: urn })).body.data.deletePolicy).toBe(urn);
    expect((await gql(readerHeaders, 'mutation($i: TagAssociationInput!) { removeTag(input: $i) }', { i: { tagUrn: TAG, resourceUrn: KAFKA } })).status).toBe(403);
  });

  it('grant platform privileges to the members of a group', async () => {
    const group = (await gql(adminHeaders, 'mutation { createGroup(input: {id: "token-makers", name: "Token makers"}) }')).body.data.createGroup;
    await gql(adminHeaders, 'mutation($g: String!, $u: [String!]!) { addGroupMembers(input: {groupUrn: $g, userUrns: $u}) }', { g: group, u: [reader] });
    const policy = { type: 'PLATFORM', name: 'token makers', state: 'ACTIVE', privileges: ['GENERATE_PERSONAL_ACCESS_TOKENS'], actors: { groups: [group], resourceOwners: false, allUsers: false, allGroups: false } };
    expect((await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: policy })).body.data.createPolicy).toBeTruthy();
    const token = await gql(readerHeaders, 'mutation($u: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_DAY, name: "mine"}) { accessToken } }', { u: reader });
    expect(token.body.data.createAccessToken.accessToken).toMatch(/^ey/);
  });

  it('grant privileges to the owners of a resource', async () => {
    const owned = 'urn:li:dataset:(urn:li:dataPlatform:hive,owned_by_reader,PROD)';
    await call(t, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: owned, changeType: 'UPSERT', aspectName: 'ownership', aspect: { value: JSON.stringify({ owners: [{ owner: reader, type: 'DATAOWNER' }] }), contentType: 'application/json' } } }, SYSTEM);
    const policy = { type: 'METADATA', name: 'owners tag', state: 'ACTIVE', privileges: ['EDIT_ENTITY_TAGS'], actors: { resourceOwners: true, allUsers: false, allGroups: false }, resources: { allResources: true } };
    await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: policy });
    expect((await addTag(readerHeaders, owned)).body).toMatchObject({ data: { addTag: true } });
    expect((await addTag(readerHeaders, HDFS)).status).toBe(403);
  });

  it('ask the same privilege of a GraphQL edit and of the REST ingestion of the aspect it writes', async () => {
    const owner = await createUser(t, 'pol_owner_editor', 'owner-password');
    const headers = bearer((await createToken(t, owner, SYSTEM)).token);
    const policy = { type: 'METADATA', name: 'owners only', state: 'ACTIVE', privileges: ['EDIT_ENTITY_OWNERS'], actors: { users: [owner], resourceOwners: false, allUsers: false, allGroups: false }, resources: { allResources: true } };
    await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: policy });
    const ingest = (aspect: string, value: unknown) =>
      call(t, 'POST', '/aspects?action=ingestProposal', { proposal: { entityType: 'dataset', entityUrn: KAFKA, changeType: 'UPSERT', aspectName: aspect, aspect: { value: JSON.stringify(value), contentType: 'application/json' } } }, headers);
    // Tags first: once an owner, the owners' policy of the previous test lets this user tag.
    expect((await addTag(headers, KAFKA)).status).toBe(403);
    expect((await ingest('globalTags', { tags: [{ tag: TAG }] })).status).toBe(403);
    expect((await gql(headers, 'mutation($i: AddOwnerInput!) { addOwner(input: $i) }', { i: { ownerUrn: owner, ownerEntityType: 'CORP_USER', resourceUrn: KAFKA } })).body).toMatchObject({ data: { addOwner: true } });
    expect((await ingest('ownership', { owners: [{ owner, type: 'DATAOWNER' }] })).status).toBe(200);
  });

  it('let MANAGE_USER_CREDENTIALS, and only it, reveal native users\' credentials to a plain user', async () => {
    const user = await createUser(t, 'pol_credentials_reader', 'reader-password');
    const headers = bearer((await createToken(t, user, SYSTEM)).token);
    const credentials = async () => (await call(t, 'GET', `/entitiesV2/${enc(reader)}?aspects=List(corpUserCredentials,corpUserInfo)`, undefined, headers)).body.aspects;
    expect(Object.keys(await credentials())).toEqual(['corpUserInfo']);
    const editAll = { type: 'METADATA', name: 'edits everything', state: 'ACTIVE', privileges: ['EDIT_ENTITY', 'VIEW_ENTITY_PAGE'], actors: { users: [user], resourceOwners: false, allUsers: false, allGroups: false }, resources: { allResources: true } };
    await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: editAll });
    expect(Object.keys(await credentials())).toEqual(['corpUserInfo']);
    const policy = { type: 'PLATFORM', name: 'credential managers', state: 'ACTIVE', privileges: ['MANAGE_USER_CREDENTIALS'], actors: { users: [user], resourceOwners: false, allUsers: false, allGroups: false } };
    const urn = (await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: policy })).body.data.createPolicy;
    expect((await credentials()).corpUserCredentials.value).toMatchObject({ salt: expect.any(String), hashedPassword: expect.stringMatching(/^scrypt\$/) });
    expect((await call(t, 'GET', `/aspects/${enc(reader)}?aspect=corpUserCredentials&version=0`, undefined, headers)).status).toBe(200);
    await gql(adminHeaders, 'mutation($u: String!) { deletePolicy(urn: $u) }', { u: urn });
    expect(Object.keys(await credentials())).toEqual(['corpUserInfo']);
    expect((await call(t, 'GET', `/aspects/${enc(reader)}?aspect=corpUserCredentials&version=0`, undefined, headers)).status).toBe(404);
  });

  it('refuse unknown privileges', async () => {
    const r = await gql(adminHeaders, 'mutation($i: PolicyUpdateInput!) { createPolicy(input: $i) }', { i: grant({ privileges: ['EDIT_EVERYTHING'] }) });
    expect(r.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining('EDIT_EVERYTHING') });
  });
});
