/**
 * Personal access tokens as the reference issues them: HS256 JWTs with its claims, stored as
 * dataHubAccessToken entities, listed, and revoked (the token stops working before the revoke
 * call answers).
 */
import { signJwt } from '@cairn/auth';
import { AUTH_ENV, bearer, createToken, createUser, SIGNING_KEY, SYSTEM } from '../support/auth';
import { call, enc, startEmbeddedTarget, type Target } from '../support/target';

let t: Target;
let editor: string;
let admin: string;
let reader: string;
let editorHeaders: Record<string, string>;
let adminHeaders: Record<string, string>;

const gql = (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => call(t, 'POST', '/api/graphql', { query, variables }, headers);
const CREATE = 'mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { urn id name description actorUrn ownerUrn createdAt expiresAt } } }';
const LIST = 'query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total tokens { id actorUrn ownerUrn name } } }';
const REVOKE = 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
const whoAmI = async (headers: Record<string, string>) => (await gql(headers, '{ me { corpUser { urn } } }')).body?.data?.me?.corpUser?.urn;

beforeAll(async () => {
  t = await startEmbeddedTarget(AUTH_ENV);
  editor = await createUser(t, 'tok_editor', 'editor-password', 'Editor');
  admin = await createUser(t, 'tok_admin', 'admin-password', 'Admin');
  reader = await createUser(t, 'tok_reader', 'reader-password');
  editorHeaders = bearer((await createToken(t, editor, SYSTEM)).token);
  adminHeaders = bearer((await createToken(t, admin, SYSTEM)).token);
}, 60_000);
afterAll(() => t?.close());

describe('createAccessToken', () => {
  it("issues an HS256 JWT with the reference's claims and records it as a dataHubAccessToken entity", async () => {
    const before = Date.now();
    const r = await gql(editorHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: editor, duration: 'ONE_HOUR', name: 'ci', description: 'for CI' } });
    const { accessToken, metadata } = r.body.data.createAccessToken;
    expect(JSON.parse(Buffer.from(accessToken.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256' });
    const claims = claimsOf(accessToken);
    expect(claims).toMatchObject({ actorType: 'USER', actorId: 'tok_editor', type: 'PERSONAL', version: '2', sub: 'tok_editor', iss: 'datahub-metadata-service', jti: expect.any(String) });
    expect(claims.exp * 1000).toBeGreaterThanOrEqual(before + 3600_000 - 2000);
    expect(metadata).toMatchObject({ name: 'ci', description: 'for CI', actorUrn: editor, ownerUrn: editor, urn: `urn:li:dataHubAccessToken:${metadata.id}` });
    expect(metadata.expiresAt - metadata.createdAt).toBe(3600_000);
    const stored = await call(t, 'GET', `/entitiesV2/${enc(metadata.urn)}?aspects=List(dataHubAccessTokenInfo)`, undefined, SYSTEM);
    expect(stored.body.aspects.dataHubAccessTokenInfo.value).toMatchObject({ name: 'ci', actorUrn: editor, ownerUrn: editor });
    expect(JSON.stringify(stored.body)).not.toContain(accessToken);
    expect(await whoAmI(bearer(accessToken))).toBe(editor);
  });

  it('makes tokens that never expire when asked, and tokens for others only with MANAGE_ACCESS_TOKENS', async () => {
    const forever = await gql(editorHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: editor, duration: 'NO_EXPIRY', name: 'forever' } });
    expect(claimsOf(forever.body.data.createAccessToken.accessToken).exp).toBeUndefined();
    expect(forever.body.data.createAccessToken.metadata.expiresAt).toBeNull();
    const forOther = await gql(editorHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: reader, duration: 'ONE_DAY', name: 'x' } });
    expect(forOther.status).toBe(403);
    const byAdmin = await gql(adminHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: reader, duration: 'ONE_DAY', name: 'for reader' } });
    const readerToken = byAdmin.body.data.createAccessToken;
    expect(readerToken.metadata).toMatchObject({ actorUrn: reader, ownerUrn: admin });
    // The token carries the privileges of the user it acts as, not of its creator.
    expect(await whoAmI(bearer(readerToken.accessToken))).toBe(reader);
    expect((await gql(bearer(readerToken.accessToken), '{ listPolicies(input: {}) { total } }')).status).toBe(403);
  });

  it('refuses what a plain user may not do and tokens acting as the system client', async () => {
    const readerHeaders = bearer((await createToken(t, reader, SYSTEM)).token);
    const own = await gql(readerHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: reader, duration: 'ONE_DAY', name: 'x' } });
    expect(own.status).toBe(403);
    expect(own.body.errors[0].message).toMatch(/GENERATE_PERSONAL_ACCESS_TOKENS/);
    const system = await gql(SYSTEM, CREATE, { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:__datahub_system', duration: 'ONE_DAY', name: 'x' } });
    expect(system.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('also answers getAccessToken, the older form', async () => {
    const r = await gql(editorHeaders, 'query { getAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:tok_editor", duration: ONE_DAY}) { accessToken metadata { name } } }');
    expect(r.body.data.getAccessToken.metadata.name).toBe('Personal Access Token');
    expect(await whoAmI(bearer(r.body.data.getAccessToken.accessToken))).toBe(editor);
  });
});

describe('listAccessTokens', () => {
  const REFUSED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
  const list = (headers: Record<string, string>, filters?: unknown[]) => gql(headers, LIST, { input: { start: 0, count: 100, ...(filters ? { filters } : {}) } });
  const expectRefused = (r: { status: number; body: any }) => {
    expect(r.status).toBe(403);
    expect(r.body.data?.listAccessTokens ?? null).toBeNull();
    expect(r.body.errors[0]).toMatchObject({ message: REFUSED, extensions: { code: 'FORBIDDEN' } });
  };

  it('refuses a caller without MANAGE_ACCESS_TOKENS who does not keep the listing to its own tokens', async () => {
    expectRefused(await list(editorHeaders));
    expectRefused(await list(editorHeaders, []));
    expectRefused(await list(editorHeaders, [{ field: 'actorUrn', values: [editor] }]));
  });

  it("lists only one's own tokens (ownerUrn = oneself) to a caller with GENERATE_PERSONAL_ACCESS_TOKENS", async () => {
    const { id } = await createToken(t, editor, editorHeaders);
    const r = await list(editorHeaders, [{ field: 'ownerUrn', values: [editor] }]);
    expect(r.status).toBe(200);
    const mine: { id: string; ownerUrn: string }[] = r.body.data.listAccessTokens.tokens;
    expect(mine.map((x) => x.id)).toContain(id);
    expect(mine.every((x) => x.ownerUrn === editor)).toBe(true);
    // The token the editor calls with acts as it but was made by the system client: not its own.
    const actingAsEditor: { id: string; ownerUrn: string }[] = (await list(adminHeaders, [{ field: 'actorUrn', values: [editor] }])).body.data.listAccessTokens.tokens;
    const madeByOthers = actingAsEditor.filter((x) => x.ownerUrn !== editor).map((x) => x.id);
    expect(madeByOthers.length).toBeGreaterThan(0);
    expect(mine.filter((x) => madeByOthers.includes(x.id))).toEqual([]);
    expect(r.body.data.listAccessTokens.total).toBe(mine.length);
  });

  it("refuses listing someone else's tokens, or more than one's own, without MANAGE_ACCESS_TOKENS", async () => {
    expectRefused(await list(editorHeaders, [{ field: 'ownerUrn', values: [admin] }]));
    expectRefused(await list(editorHeaders, [{ field: 'ownerUrn', values: [editor, admin] }]));
    expectRefused(await list(editorHeaders, [{ field: 'ownerUrn', values: [editor], negated: true }]));
    expectRefused(await list(editorHeaders, [{ field: 'actorUrn', values: [reader] }]));
  });

  it('refuses even its own tokens to a user without GENERATE_PERSONAL_ACCESS_TOKENS', async () => {
    const readerHeaders = bearer((await createToken(t, reader, SYSTEM)).token);
    expectRefused(await list(readerHeaders, [{ field: 'ownerUrn', values: [reader] }]));
  });

  it("lists everyone's tokens with MANAGE_ACCESS_TOKENS, filtered by actor or owner", async () => {
    const all = (await list(adminHeaders)).body.data.listAccessTokens;
    expect(all.tokens.some((x: { actorUrn: string }) => x.actorUrn === reader)).toBe(true);
    expect(all.tokens.some((x: { ownerUrn: string }) => x.ownerUrn === editor)).toBe(true);
    const filtered = (await list(adminHeaders, [{ field: 'actorUrn', values: [reader] }])).body.data.listAccessTokens;
    expect(filtered.tokens.length).toBeGreaterThan(0);
    expect(filtered.tokens.every((x: { actorUrn: string }) => x.actorUrn === reader)).toBe(true);
    const ofEditor = (await list(adminHeaders, [{ field: 'ownerUrn', values: [editor] }])).body.data.listAccessTokens;
    expect(ofEditor.tokens.length).toBeGreaterThan(0);
    expect(ofEditor.tokens.every((x: { ownerUrn: string }) => x.ownerUrn === editor)).toBe(true);
  });
});

describe('revokeAccessToken', () => {
  it('makes the token fail at once, even right after it was used (and cached), and deletes its record', async () => {
    const { token, id } = await createToken(t, editor, editorHeaders);
    expect(await whoAmI(bearer(token))).toBe(editor);
    const revoked = await gql(editorHeaders, REVOKE, { id });
    expect(revoked.body.data.revokeAccessToken).toBe(true);
    const after = await gql(bearer(token), '{ me { corpUser { urn } } }');
    expect(after.status).toBe(401);
    expect(after.body.errors[0].message).toMatch(/revoked/);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: `urn:li:dataHubAccessToken:${id}` }, SYSTEM)).body.value).toBe(false);
    expect((await gql(editorHeaders, REVOKE, { id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it("revokes others' tokens only with MANAGE_ACCESS_TOKENS", async () => {
    const { id } = await createToken(t, admin, adminHeaders);
    expect((await gql(editorHeaders, REVOKE, { id })).status).toBe(403);
    expect((await gql(adminHeaders, REVOKE, { id })).body.data.revokeAccessToken).toBe(true);
  });

  it('accepts no personal token without its record, even one signed with the right key', async () => {
    const forged = signJwt({ actorType: 'USER', actorId: 'tok_admin', type: 'PERSONAL', version: '2', jti: 'j', sub: 'tok_admin', iss: 'datahub-metadata-service' }, SIGNING_KEY);
    expect((await gql(bearer(forged), '{ me { corpUser { urn } } }')).status).toBe(401);
    const otherIssuer = signJwt({ actorType: 'USER', actorId: 'tok_admin', type: 'SESSION', version: '1', jti: 'j', sub: 'tok_admin', iss: 'someone-else' }, SIGNING_KEY);
    expect((await gql(bearer(otherIssuer), '{ me { corpUser { urn } } }')).status).toBe(401);
  });
});

describe('users', () => {
  it('who are suspended or removed can no longer act, whatever token they hold', async () => {
    const suspended = await createUser(t, 'tok_suspended', 'suspended-password');
    const removed = await createUser(t, 'tok_removed', 'removed-password');
    const [s, r] = await Promise.all([createToken(t, suspended, SYSTEM), createToken(t, removed, SYSTEM)]);
    expect(await whoAmI(bearer(s.token))).toBe(suspended);
    const status = { proposal: { entityType: 'corpuser', entityUrn: suspended, changeType: 'UPSERT', aspectName: 'corpUserStatus', aspect: { value: JSON.stringify({ status: 'SUSPENDED', lastModified: { time: 0, actor: admin } }), contentType: 'application/json' } } };
    expect((await call(t, 'POST', '/aspects?action=ingestProposal', status, adminHeaders)).status).toBe(200);
    expect((await gql(bearer(s.token), '{ me { corpUser { urn } } }')).body.errors[0].message).toMatch(/suspended/);
    expect((await call(t, 'POST', '/logIn', { username: 'tok_suspended', password: 'suspended-password' })).status).toBe(401);
    expect((await gql(adminHeaders, 'mutation($u: String!) { removeUser(urn: $u) }', { u: removed })).body.data.removeUser).toBe(true);
    expect((await gql(bearer(r.token), '{ me { corpUser { urn } } }')).body.errors[0].message).toMatch(/does not exist/);
    expect((await gql(adminHeaders, CREATE, { input: { type: 'PERSONAL', actorUrn: removed, duration: 'ONE_DAY', name: 'x' } })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
