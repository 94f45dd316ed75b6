/**
 * Who may do what, with authentication on: every kind of actor (anonymous, bad, expired and
 * revoked tokens, a plain user, an editor, an admin, the system client) against every family of
 * endpoints, with the status each gets; a refused write leaves the store as it was. That covers
 * the privileged operations too (a real time-series truncation, index restore and rebuild, task
 * status, stored metadata test results, createTest) and token management beyond oneself
 * (creating and revoking another user's tokens, listing everyone's): a refused truncation
 * deletes nothing, a refused push, test or token writes nothing.
 */
import { signJwt } from '@cairn/auth';
import { AUTH_ENV, bearer, createToken, createUser, SIGNING_KEY, SYSTEM } from '../support/auth';
import { call, enc, eventually, proposal, startEmbeddedTarget, unique, type Reply, type Target } from '../support/target';

type ActorName = 'anonymous' | 'badToken' | 'foreignToken' | 'expiredToken' | 'revokedToken' | 'reader' | 'editor' | 'admin' | 'system';
const ACTORS: ActorName[] = ['anonymous', 'badToken', 'foreignToken', 'expiredToken', 'revokedToken', 'reader', 'editor', 'admin', 'system'];
const UNAUTHENTICATED: ActorName[] = ['anonymous', 'badToken', 'foreignToken', 'expiredToken', 'revokedToken'];

let t: Target;
const headers = {} as Record<ActorName, Record<string, string>>;
const users = {} as Record<'reader' | 'editor' | 'admin', string>;

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,matrix_${name},PROD)`;
const TAG = 'urn:li:tag:matrix';
/** Names of this run, so that what the families create cannot collide with anything else. */
const RUN = unique('matrix');
/** A user none of the actors is: the one whose tokens they try to create, revoke and list. */
let other: string;
/** A token of `other` for each actor to try to revoke (made by the system client, so no actor's own). */
const othersTokens = {} as Record<ActorName, string>;
/** A metadata test the shouldPush family runs. */
const PUSH_TEST = `urn:li:test:${RUN}_push`;
/** A finished truncation task, whose status the getEsTaskStatus family asks for. */
let finishedTask: string;

beforeAll(async () => {
  t = await startEmbeddedTarget(AUTH_ENV);
  for (const role of ['reader', 'editor', 'admin'] as const) {
    users[role] = await createUser(t, `matrix_${role}`, `${role}-password`, role === 'reader' ? undefined : role === 'editor' ? 'Editor' : 'Admin');
    headers[role] = bearer((await createToken(t, users[role], SYSTEM)).token);
  }
  const revoked = await createToken(t, users.admin, SYSTEM);
  await call(t, 'POST', '/api/graphql', { query: 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', variables: { id: revoked.id } }, SYSTEM);
  const past = Math.floor(Date.now() / 1000) - 60;
  const claims = { actorType: 'USER', actorId: 'matrix_admin', type: 'PERSONAL', version: '2', jti: 'x', sub: 'matrix_admin', iss: 'datahub-metadata-service' };
  Object.assign(headers, {
    anonymous: {},
    badToken: bearer('not-a-token'),
    foreignToken: bearer(signJwt({ ...claims, type: 'SESSION', version: '1' }, 'another-signing-key-of-32-characters!!')),
    expiredToken: bearer(signJwt({ ...claims, type: 'SESSION', version: '1', exp: past }, SIGNING_KEY)),
    revokedToken: bearer(revoked.token),
    system: SYSTEM,
  });
  for (const actor of ACTORS) {
    const r = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(dataset(actor), 'datasetProperties', { description: 'original' }), SYSTEM);
    expect(r.status).toBe(200);
  }
  await call(t, 'POST', '/aspects?action=ingestProposal', proposal(TAG, 'tagProperties', { name: 'matrix' }), SYSTEM);

  other = await createUser(t, `${RUN}_other`, 'other-password', 'Editor');
  for (const actor of ACTORS) othersTokens[actor] = (await createToken(t, other, SYSTEM)).id;
  const definition = { on: { types: ['dataset'] }, rules: { property: 'datasetProperties.description', operator: 'exists' } };
  const pushTest = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(PUSH_TEST, 'testInfo', { name: 'has a description', category: 'Contract', definition: { type: 'JSON', json: JSON.stringify(definition) } }), SYSTEM);
  expect(pushTest.status).toBe(200);
  // One profile per actor, at a time of its own: see the truncation family.
  for (const actor of ACTORS) {
    const written = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(dataset(actor), 'datasetProfile', { timestampMillis: profileTime(actor), rowCount: 1 }), SYSTEM);
    expect(written.status).toBe(200);
  }
  for (const actor of ACTORS) await eventually(async () => (await profiles(actor)) === 1);
  const truncation = await call(t, 'POST', '/operations?action=truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetUsageStatistics', endTimeMillis: 1, dryRun: false }, SYSTEM);
  expect(truncation.status).toBe(200);
  finishedTask = truncation.body.value;
  await taskDone(finishedTask);
}, 60_000);
afterAll(() => t?.close());

/** How each family answers each authenticated actor; the unauthenticated ones always get 401. */
interface Family {
  readonly name: string;
  readonly allowed: readonly ActorName[];
  request(actor: ActorName): Promise<{ status: number; body: any }>;
  /** For writes: whether the actor's write is in the store. */
  written?(actor: ActorName): Promise<boolean>;
}

const everyone: ActorName[] = ['reader', 'editor', 'admin', 'system'];
const editors: ActorName[] = ['editor', 'admin', 'system'];
const admins: ActorName[] = ['admin', 'system'];

const gqlCall = (actor: ActorName, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/api/graphql', { query, variables }, headers[actor]);
const latest = async (urn: string, aspect: string) => (await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(${aspect})`, undefined, SYSTEM)).body.aspects?.[aspect]?.value;
const exists = async (urn: string) => (await call(t, 'POST', '/entities?action=exists', { urn }, SYSTEM)).body.value === true;

/** Waits until an operations task (a truncation, a rebuild) has finished. */
async function taskDone(task: string): Promise<void> {
  await eventually(async () => {
    const r = await call(t, 'POST', '/operations?action=getEsTaskStatus', { task }, SYSTEM);
    return r.status === 200 && JSON.parse(r.body.value).completed === true;
  }, 20_000);
}
/** Answers as the actor's request did, once the task it started (if it started one) has finished. */
async function finished(reply: Promise<Reply>): Promise<Reply> {
  const r = await reply;
  if (r.status === 200) await taskDone(r.body.value);
  return r;
}

/**
 * The truncation family deletes every dataset profile older than a time, whoever's it is, so each
 * actor's profile is at a time of its own: those allowed to truncate first, in the order they
 * run, then the others. An allowed actor's cut (just after its own profile) takes only its own
 * and earlier allowed ones' (already gone); a refused actor's cut would take its own, which the
 * test then finds still there.
 */
const TRUNCATE_ALLOWED: ActorName[] = ['admin', 'system'];
const TRUNCATE_ORDER: ActorName[] = [...ACTORS.filter((a) => TRUNCATE_ALLOWED.includes(a)), ...ACTORS.filter((a) => !TRUNCATE_ALLOWED.includes(a))];
const profileTime = (a: ActorName) => 1_000_000 + 1000 * TRUNCATE_ORDER.indexOf(a);
const profiles = async (a: ActorName): Promise<number> =>
  (await call(t, 'POST', '/aspects?action=getTimeseriesAspectValues', { urn: dataset(a), entity: 'dataset', aspect: 'datasetProfile' }, SYSTEM)).body.value.values.length;

const TOKENS_LIST = 'query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total tokens { id actorUrn ownerUrn name } } }';
const tokensOf = async (actorUrn: string): Promise<{ id: string; name: string; ownerUrn: string }[]> =>
  (await call(t, 'POST', '/api/graphql', { query: TOKENS_LIST, variables: { input: { start: 0, count: 1000, filters: [{ field: 'actorUrn', values: [actorUrn] }] } } }, SYSTEM)).body.data.listAccessTokens.tokens;

const FAMILIES: Family[] = [
  {
    name: 'REST ingestion of an ingestion aspect',
    allowed: editors,
    request: (a) => call(t, 'POST', '/aspects?action=ingestProposal', proposal(dataset(a), 'datasetProperties', { description: `by ${a}` }), headers[a]),
    written: async (a) => (await latest(dataset(a), 'datasetProperties')).description === `by ${a}`,
  },
  {
    name: 'REST ingestion of documentation (every user may edit docs)',
    allowed: everyone,
    request: (a) => call(t, 'POST', '/aspects?action=ingestProposal', proposal(dataset(a), 'editableDatasetProperties', { description: `docs by ${a}` }), headers[a]),
    written: async (a) => (await latest(dataset(a), 'editableDatasetProperties'))?.description === `docs by ${a}`,
  },
  {
    name: 'legacy snapshot ingestion',
    allowed: editors,
    request: (a) =>
      call(t, 'POST', '/entities?action=ingest', { entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: dataset(a), aspects: [{ 'com.linkedin.common.Status': { removed: false } }] } } } }, headers[a]),
    written: async (a) => (await latest(dataset(a), 'status')) !== undefined,
  },
  {
    name: 'REST reads',
    allowed: everyone,
    request: (a) => call(t, 'GET', `/entitiesV2/${enc(dataset(a))}?aspects=List(datasetProperties)`, undefined, headers[a]),
  },
  {
    name: 'search',
    allowed: everyone,
    request: (a) => call(t, 'POST', '/entities?action=search', { entity: 'dataset', input: '*', start: 0, count: 5 }, headers[a]),
  },
  {
    name: 'operations: getIndexSizes (GET_TIMESERIES_INDEX_SIZES)',
    allowed: admins,
    request: (a) => call(t, 'POST', '/operations?action=getIndexSizes', {}, headers[a]),
  },
  {
    name: 'operations: truncateTimeseriesAspect, a real run (TRUNCATE_TIMESERIES_INDEX)',
    allowed: TRUNCATE_ALLOWED,
    request: (a) =>
      finished(call(t, 'POST', '/operations?action=truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: profileTime(a) + 1, dryRun: false, batchSize: 10 }, headers[a])),
    // "Written" here is deleted: the actor's profile is gone.
    written: async (a) => (await profiles(a)) === 0,
  },
  {
    name: 'operations: getEsTaskStatus (GET_ES_TASK_STATUS)',
    allowed: admins,
    request: (a) => call(t, 'POST', '/operations?action=getEsTaskStatus', { task: finishedTask }, headers[a]),
  },
  {
    name: 'operations: restoreIndices (RESTORE_INDICES)',
    allowed: admins,
    request: (a) => call(t, 'POST', '/operations?action=restoreIndices', { urn: dataset(a) }, headers[a]),
  },
  {
    name: 'operations: restoreIndices under /aspects (RESTORE_INDICES)',
    allowed: admins,
    request: (a) => call(t, 'POST', '/aspects?action=restoreIndices', { urn: dataset(a) }, headers[a]),
  },
  {
    name: 'operations: rebuildIndices (RESTORE_INDICES; empties and refills the indexes)',
    allowed: admins,
    request: (a) => finished(call(t, 'POST', '/operations?action=rebuildIndices', {}, headers[a])),
  },
  {
    name: 'metadata tests evaluation',
    allowed: everyone,
    request: (a) => call(t, 'POST', '/test?action=evaluate', { urn: dataset(a) }, headers[a]),
  },
  {
    name: 'metadata tests evaluation storing the results (shouldPush: testResults needs EDIT_ENTITY)',
    allowed: editors,
    request: (a) => call(t, 'POST', '/test?action=evaluate', { urn: dataset(a), testUrns: [PUSH_TEST], shouldPush: true }, headers[a]),
    written: async (a) => (await latest(dataset(a), 'testResults')) !== undefined,
  },
  {
    name: 'GraphQL createTest (MANAGE_TESTS)',
    allowed: admins,
    request: (a) =>
      gqlCall(a, 'mutation($id: String!) { createTest(input: {id: $id, name: "matrix", category: "Contract", definition: {json: "{}"}}) }', { id: `${RUN}_created_by_${a}` }),
    written: (a) => exists(`urn:li:test:${RUN}_created_by_${a}`),
  },
  {
    name: 'GraphQL queries',
    allowed: everyone,
    request: (a) => gqlCall(a, 'query($urn: String!) { dataset(urn: $urn) { urn } }', { urn: dataset(a) }),
  },
  {
    name: 'GraphQL edit of tags',
    allowed: editors,
    request: (a) => gqlCall(a, 'mutation($input: TagAssociationInput!) { addTag(input: $input) }', { input: { tagUrn: TAG, resourceUrn: dataset(a) } }),
    written: async (a) => (await latest(dataset(a), 'globalTags')) !== undefined,
  },
  {
    name: 'GraphQL edit of documentation',
    allowed: everyone,
    request: (a) => gqlCall(a, 'mutation($urn: String!, $d: String!) { updateDataset(urn: $urn, input: {editableProperties: {description: $d}}) { urn } }', { urn: dataset(a), d: `gql docs by ${a}` }),
    written: async (a) => (await latest(dataset(a), 'editableDatasetProperties'))?.description === `gql docs by ${a}`,
  },
  {
    name: 'creating a personal access token for oneself',
    allowed: editors,
    request: (a) => gqlCall(a, 'mutation($u: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_HOUR, name: "mine"}) { accessToken } }', { u: a in users ? users[a as keyof typeof users] : 'urn:li:corpuser:matrix_admin' }),
  },
  {
    name: 'creating an access token for another user (MANAGE_ACCESS_TOKENS)',
    allowed: admins,
    request: (a) =>
      gqlCall(a, 'mutation($u: String!, $n: String!) { createAccessToken(input: {type: PERSONAL, actorUrn: $u, duration: ONE_HOUR, name: $n}) { accessToken } }', { u: other, n: `${RUN} by ${a}` }),
    written: async (a) => (await tokensOf(other)).some((x) => x.name === `${RUN} by ${a}`),
  },
  {
    name: "revoking another user's access token (MANAGE_ACCESS_TOKENS)",
    allowed: admins,
    request: (a) => gqlCall(a, 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }', { id: othersTokens[a] }),
    // "Written" here is deleted: the token's record is gone (and with it the token).
    written: async (a) => !(await exists(`urn:li:dataHubAccessToken:${othersTokens[a]}`)),
  },
  {
    name: 'managing policies',
    allowed: admins,
    request: (a) => gqlCall(a, '{ listPolicies(input: {start: 0, count: 5}) { total } }'),
  },
];

describe.each(FAMILIES)('$name', (family) => {
  it.each(ACTORS)('%s', async (actor) => {
    const res = await family.request(actor);
    const expected = UNAUTHENTICATED.includes(actor) ? 401 : family.allowed.includes(actor) ? 200 : 403;
    expect({ actor, status: res.status }).toEqual({ actor, status: expected });
    if (expected === 200 && res.body?.errors) throw new Error(`${actor}: ${JSON.stringify(res.body.errors)}`);
    if (expected !== 200) expect(JSON.stringify(res.body)).toMatch(expected === 401 ? /Authentication required|Invalid credentials/ : /Unauthorized to perform this action/);
    if (family.written) expect(await family.written(actor)).toBe(expected === 200);
  });
});

/**
 * listAccessTokens as the reference's resolver: those with MANAGE_ACCESS_TOKENS (admins, the
 * system client) list everyone's tokens; anyone else is refused (403) unless the filters keep the
 * listing to the tokens it owns (ownerUrn = itself), which needs GENERATE_PERSONAL_ACCESS_TOKENS
 * (the editor has it, the reader does not). Listing writes nothing.
 */
const TOKENS_REFUSED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const OWN_TOKENS_ALLOWED: ActorName[] = ['editor', ...admins];
describe("listing everyone's access tokens (MANAGE_ACCESS_TOKENS)", () => {
  it.each(ACTORS)('%s', async (actor) => {
    const before = (await tokensOf(other)).map((x) => x.id).sort();
    expect(before.length).toBeGreaterThan(0);
    const all = await gqlCall(actor, TOKENS_LIST, { input: { start: 0, count: 1000 } });
    const others = await gqlCall(actor, TOKENS_LIST, { input: { start: 0, count: 1000, filters: [{ field: 'actorUrn', values: [other] }] } });
    const othersOwned = await gqlCall(actor, TOKENS_LIST, { input: { start: 0, count: 1000, filters: [{ field: 'ownerUrn', values: [other] }] } });
    if (UNAUTHENTICATED.includes(actor)) {
      expect({ actor, statuses: [all.status, others.status, othersOwned.status] }).toEqual({ actor, statuses: [401, 401, 401] });
      expect(all.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    } else if (admins.includes(actor)) {
      expect({ actor, statuses: [all.status, others.status], errors: all.body.errors ?? others.body.errors }).toEqual({ actor, statuses: [200, 200], errors: undefined });
      expect(all.body.data.listAccessTokens.tokens.some((x: { actorUrn: string }) => x.actorUrn === other)).toBe(true);
      expect(others.body.data.listAccessTokens.tokens.map((x: { id: string }) => x.id).sort()).toEqual(before);
      expect(othersOwned.status).toBe(200);
    } else {
      for (const refused of [all, others, othersOwned]) {
        expect({ actor, status: refused.status, data: refused.body.data?.listAccessTokens ?? null }).toEqual({ actor, status: 403, data: null });
        expect(refused.body.errors[0]).toMatchObject({ message: TOKENS_REFUSED, extensions: { code: 'FORBIDDEN' } });
      }
    }
    expect((await tokensOf(other)).map((x) => x.id).sort()).toEqual(before);
  });
});

describe("listing one's own access tokens (ownerUrn = oneself, GENERATE_PERSONAL_ACCESS_TOKENS)", () => {
  it.each(ACTORS.filter((a) => !UNAUTHENTICATED.includes(a)))('%s', async (actor) => {
    const me = actor === 'system' ? 'urn:li:corpuser:__datahub_system' : users[actor as 'reader' | 'editor' | 'admin'];
    const own = await gqlCall(actor, TOKENS_LIST, { input: { start: 0, count: 1000, filters: [{ field: 'ownerUrn', values: [me] }] } });
    if (!OWN_TOKENS_ALLOWED.includes(actor)) {
      expect({ actor, status: own.status }).toEqual({ actor, status: 403 });
      expect(own.body.errors[0]).toMatchObject({ message: TOKENS_REFUSED, extensions: { code: 'FORBIDDEN' } });
      return;
    }
    expect({ actor, status: own.status, errors: own.body.errors }).toEqual({ actor, status: 200, errors: undefined });
    const listed: { ownerUrn: string }[] = own.body.data.listAccessTokens.tokens;
    expect(listed.filter((x) => x.ownerUrn !== me)).toEqual([]);
  });
});

describe('refusals', () => {
  it('name what was missing: 401 with WWW-Authenticate, GraphQL errors in the GraphQL shape', async () => {
    const rest = await call(t, 'GET', `/entitiesV2/${enc(dataset('x'))}`);
    expect(rest.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(rest.body).toMatchObject({ status: 401, exceptionClass: expect.any(String) });
    const gql = await call(t, 'POST', '/api/graphql', { query: '{ me { corpUser { urn } } }' });
    expect(gql.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const forbidden = await gqlCall('reader', '{ listPolicies(input: {}) { total } }');
    expect(forbidden.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' }, message: expect.stringContaining('MANAGE_POLICIES') });
  });

  it('leave /health and /config open, under every prefix', async () => {
    for (const path of ['/health', '/config', '/api/gms/config', '/gms/health']) expect((await call(t, 'GET', path)).status).toBe(200);
    expect((await call(t, 'GET', '/metrics')).status).toBe(401);
    expect((await call(t, 'GET', '/api/gms/entitiesV2/' + enc(dataset('x')))).status).toBe(401);
  });

  it('deleted nothing for a refused truncation, even after the allowed ones ran', async () => {
    // Every refused actor's profile is newer than the allowed actors' cuts: all must still be there.
    const refused = ACTORS.filter((a) => !TRUNCATE_ALLOWED.includes(a));
    expect(await Promise.all(refused.map(async (a) => [a, await profiles(a)]))).toEqual(refused.map((a) => [a, 1]));
    expect(await Promise.all(TRUNCATE_ALLOWED.map(async (a) => [a, await profiles(a)]))).toEqual(TRUNCATE_ALLOWED.map((a) => [a, 0]));
  });

  it('refuse a whole batch when one proposal is not allowed, writing nothing', async () => {
    const res = await call(t, 'POST', '/aspects?action=ingestProposalBatch', {
      proposals: [proposal(dataset('reader'), 'editableDatasetProperties', { description: 'batch ok' }).proposal, proposal(dataset('reader'), 'ownership', { owners: [] }).proposal],
    }, headers.reader);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/EDIT_ENTITY_OWNERS/);
    expect((await latest(dataset('reader'), 'editableDatasetProperties'))?.description).not.toBe('batch ok');
  });

  it('check deletes on the entity: readers may not hard-delete, editors may', async () => {
    expect((await call(t, 'POST', '/entities?action=delete', { urn: dataset('editor') }, headers.reader)).status).toBe(403);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: dataset('editor') }, SYSTEM)).body.value).toBe(true);
    expect((await call(t, 'POST', '/entities?action=delete', { urn: dataset('editor') }, headers.editor)).status).toBe(200);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: dataset('editor') }, SYSTEM)).body.value).toBe(false);
  });

  it('keep identity and access aspects to their platform privileges, whatever else an actor may edit', async () => {
    const escalate = proposal(users.editor, 'roleMembership', { roles: ['urn:li:dataHubRole:Admin'] });
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', escalate, headers.editor)).status).toBe(403);
    const policy = proposal('urn:li:dataHubPolicy:sneaky', 'dataHubPolicyInfo', { displayName: 'x', description: '', type: 'PLATFORM', state: 'ACTIVE', privileges: ['MANAGE_POLICIES'], actors: { users: [users.editor] } });
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', policy, headers.editor)).status).toBe(403);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: 'urn:li:dataHubPolicy:sneaky' }, SYSTEM)).body.value).toBe(false);
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', escalate, headers.admin)).status).toBe(200);
  });
});

/**
 * corpUserCredentials (a native user's salt and password hash) is a secret aspect: every read
 * leaves it out, as if absent, unless the caller holds MANAGE_USER_CREDENTIALS (admins, the root
 * user) or is the system client. VIEW_ENTITY_PAGE, which every user has, is not enough.
 */
describe('secret aspects: corpUserCredentials', () => {
  const READERS: ActorName[] = ['reader', 'editor', 'admin', 'system'];
  const sees = (a: ActorName) => admins.includes(a);
  const CREDENTIALS_RECORD = 'com.linkedin.identity.CorpUserCredentials';
  let victim: string;
  let secret: { salt: string; hashedPassword: string };
  let credentialsTest: string;
  // The editor of the matrix was made an admin above; these tests need an editor that still is one.
  const as = {} as Record<ActorName, Record<string, string>>;
  const gqlAs = (actor: ActorName, query: string, variables: Record<string, unknown>) => call(t, 'POST', '/api/graphql', { query, variables }, as[actor]);

  beforeAll(async () => {
    const editor = await createUser(t, 'matrix_secret_editor', 'editor-password', 'Editor');
    Object.assign(as, headers, { editor: bearer((await createToken(t, editor, SYSTEM)).token) });
    victim = users.reader;
    secret = await latest(victim, 'corpUserCredentials');
    expect(secret).toMatchObject({ salt: expect.any(String), hashedPassword: expect.stringMatching(/^scrypt\$/) });
    credentialsTest = 'urn:li:test:matrix_credentials';
    const definition = { on: { types: ['corpuser'] }, rules: { property: 'corpUserCredentials.hashedPassword', operator: 'starts_with', values: ['scrypt$'] } };
    const created = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(credentialsTest, 'testInfo', { name: 'credentials oracle', category: 'Contract', definition: { type: 'JSON', json: JSON.stringify(definition) } }), SYSTEM);
    expect(created.status).toBe(200);
  });

  const noSecretIn = (actor: ActorName, body: unknown) => {
    const text = JSON.stringify(body);
    if (sees(actor)) return;
    expect(text).not.toContain(secret.hashedPassword);
    expect(text).not.toContain(secret.salt);
  };

  it.each(READERS)('GET /entitiesV2/{urn}, all aspects and the aspect asked for: %s', async (actor) => {
    const all = await call(t, 'GET', `/entitiesV2/${enc(victim)}`, undefined, as[actor]);
    expect(all.status).toBe(200);
    expect(all.body.aspects.corpUserInfo).toBeDefined();
    expect({ actor, sees: all.body.aspects.corpUserCredentials?.value ?? null }).toEqual({ actor, sees: sees(actor) ? secret : null });
    noSecretIn(actor, all.body);
    const asked = await call(t, 'GET', `/entitiesV2/${enc(victim)}?aspects=List(corpUserCredentials,corpUserInfo)`, undefined, as[actor]);
    expect(asked.status).toBe(200);
    expect(Object.keys(asked.body.aspects).sort()).toEqual(sees(actor) ? ['corpUserCredentials', 'corpUserInfo'] : ['corpUserInfo']);
    noSecretIn(actor, asked.body);
  });

  it.each(READERS)('GET /entitiesV2?ids=List(...), the batch form: %s', async (actor) => {
    const batch = await call(t, 'GET', `/entitiesV2?ids=List(${enc(victim)},${enc(dataset(actor))})`, undefined, as[actor]);
    expect(batch.status).toBe(200);
    expect(batch.body.results[victim].aspects.corpUserInfo).toBeDefined();
    expect({ actor, sees: batch.body.results[victim].aspects.corpUserCredentials?.value ?? null }).toEqual({ actor, sees: sees(actor) ? secret : null });
    noSecretIn(actor, batch.body);
  });

  it.each(READERS)('GET /entities/{urn}, the legacy snapshot: %s', async (actor) => {
    const snap = await call(t, 'GET', `/entities/${enc(victim)}`, undefined, as[actor]);
    expect(snap.status).toBe(200);
    const aspects: Record<string, unknown>[] = snap.body.value['com.linkedin.metadata.snapshot.CorpUserSnapshot'].aspects;
    expect(aspects.some((a) => 'com.linkedin.identity.CorpUserInfo' in a)).toBe(true);
    expect({ actor, sees: aspects.find((a) => CREDENTIALS_RECORD in a)?.[CREDENTIALS_RECORD] ?? null }).toEqual({ actor, sees: sees(actor) ? secret : null });
    noSecretIn(actor, snap.body);
  });

  it.each(READERS)('GET /aspects/{urn}?aspect=corpUserCredentials answers as if absent (404): %s', async (actor) => {
    for (const version of [0, 1]) {
      const one = await call(t, 'GET', `/aspects/${enc(victim)}?aspect=corpUserCredentials&version=${version}`, undefined, as[actor]);
      if (version === 1) {
        // No older version exists for anyone: the refusal must look exactly like this.
        expect(one.status).toBe(404);
        continue;
      }
      if (sees(actor)) {
        expect(one.status).toBe(200);
        expect(one.body).toEqual({ version: 0, aspect: { [CREDENTIALS_RECORD]: secret } });
      } else {
        expect({ actor, status: one.status }).toEqual({ actor, status: 404 });
        expect(one.body).toMatchObject({ status: 404, exceptionClass: expect.any(String), message: `Did not find urn: ${victim} aspect: corpUserCredentials version: 0` });
        noSecretIn(actor, one.body);
      }
    }
  });

  it.each(READERS)('metadata test evaluation sees the entity as the caller may read it: %s', async (actor) => {
    const res = await call(t, 'POST', '/test?action=evaluate', { urn: victim, testUrns: [credentialsTest] }, as[actor]);
    expect(res.status).toBe(200);
    expect({ actor, passing: res.body.value.passing.length }).toEqual({ actor, passing: sees(actor) ? 1 : 0 });
  });

  it.each(READERS)('GraphQL exposes no credentials of a user: %s', async (actor) => {
    const res = await gqlAs(actor, 'query($u: String!) { corpUser(urn: $u) { urn username properties { displayName email } editableProperties { displayName } } }', { u: victim });
    expect(res.status).toBe(200);
    expect(res.body.data.corpUser.urn).toBe(victim);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(secret.hashedPassword);
    expect(text).not.toContain(secret.salt);
  });

  it('other read paths hold no credentials: search, restoreIndices, access-token records', async () => {
    const search = await call(t, 'POST', '/entities?action=search', { entity: 'corpuser', input: '*', start: 0, count: 50 }, as.reader);
    expect(search.status).toBe(200);
    noSecretIn('reader', search.body);
    const restored = await call(t, 'POST', '/operations?action=restoreIndices', { urn: victim, aspect: 'corpUserCredentials' }, SYSTEM);
    expect(restored.status).toBe(200);
    expect(JSON.stringify(restored.body)).not.toContain(secret.hashedPassword);
    const { token, id } = await createToken(t, users.editor, SYSTEM);
    const record = await call(t, 'GET', `/entitiesV2/${enc(`urn:li:dataHubAccessToken:${id}`)}`, undefined, as.reader);
    expect(record.status).toBe(200);
    expect(record.body.aspects.dataHubAccessTokenInfo.value).toMatchObject({ name: expect.any(String), actorUrn: users.editor });
    expect(JSON.stringify(record.body)).not.toContain(token);
    expect(JSON.stringify(record.body)).not.toContain(token.split('.')[2]);
  });
});
