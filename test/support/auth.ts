/** Credentials for tests: an embedded catalog with authentication on, tokens, users with roles, sessions. */
import { call, startEmbeddedTarget, startTarget, type Target } from './target';

export const SYSTEM_SECRET = 'test-system-client-secret';
export const SIGNING_KEY = 'test-signing-key-of-at-least-32-characters';
export const ROOT_PASSWORD = 'root-password';

/** The environment of an embedded catalog with authentication on and known secrets. */
export const AUTH_ENV: Record<string, string> = {
  METADATA_SERVICE_AUTH_ENABLED: 'true',
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: SIGNING_KEY,
  DATAHUB_TOKEN_SERVICE_SALT: 'test-salt',
  DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_SECRET,
  AUTH_ROOT_PASSWORD: ROOT_PASSWORD,
  AUTH_CACHE_MS: '300',
};

export const SYSTEM = { Authorization: `Basic __datahub_system:${SYSTEM_SECRET}` };
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function createToken(t: Target, actorUrn: string, headers: Record<string, string>, duration = 'ONE_DAY'): Promise<{ token: string; id: string }> {
  const r = await call(t, 'POST', '/api/graphql', {
    query: 'mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { id } } }',
    variables: { input: { type: 'PERSONAL', actorUrn, duration, name: `test token of ${actorUrn}` } },
  }, headers);
  const created = r.body?.data?.createAccessToken;
  if (!created) throw new Error(`createAccessToken for ${actorUrn} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { token: created.accessToken, id: created.metadata.id };
}

/** A native user with a role (none: what every user may do); the system client creates it. */
export async function createUser(t: Target, username: string, password: string, role?: 'Admin' | 'Editor' | 'Reader'): Promise<string> {
  const created = await call(t, 'POST', '/api/graphql', { query: 'mutation($u: String!, $p: String!) { createNativeUser(input: {username: $u, password: $p}) }', variables: { u: username, p: password } }, SYSTEM);
  const urn = created.body?.data?.createNativeUser;
  if (!urn) throw new Error(`createNativeUser ${username} failed: ${created.status} ${JSON.stringify(created.body)}`);
  if (role) {
    const assigned = await call(t, 'POST', '/api/graphql', { query: 'mutation($r: String, $a: [String!]!) { batchAssignRole(input: {roleUrn: $r, actors: $a}) }', variables: { r: `urn:li:dataHubRole:${role}`, a: [urn] } }, SYSTEM);
    if (assigned.body?.data?.batchAssignRole !== true) throw new Error(`batchAssignRole ${role} failed: ${JSON.stringify(assigned.body)}`);
  }
  return urn;
}

/**
 * A personal token for the reference's clients (which send bearer tokens) against a deployment
 * that needs credentials (CAIRN_TEST_AUTH), made with the system client for the root user
 * (CAIRN_TEST_TOKEN_ACTOR); undefined when the deployment needs none.
 */
export async function clientToken(t: Target): Promise<string | undefined> {
  if (!t.authHeaders.Authorization) return undefined;
  const { token } = await createToken(t, process.env.CAIRN_TEST_TOKEN_ACTOR ?? 'urn:li:corpuser:datahub', {});
  return token;
}

/**
 * Whether the contract tests can reach a deployment with authentication on: the one
 * CAIRN_BASE_URL names has it when the suite was given credentials for it (CAIRN_TEST_AUTH, as
 * CI's second pass does for gms); without CAIRN_BASE_URL, startAuthTarget starts an embedded
 * catalog with it. False for a deployment given without credentials (authentication off).
 */
export const AUTH_TARGET_AVAILABLE = !process.env.CAIRN_BASE_URL || Boolean(process.env.CAIRN_TEST_AUTH);

/**
 * A deployment with authentication on (see AUTH_TARGET_AVAILABLE) whose calls send no
 * credentials unless given headers, and the headers of a caller it lets do everything:
 * CAIRN_TEST_AUTH for an external deployment, the system client for an embedded one.
 */
export async function startAuthTarget(): Promise<{ target: Target; credentials: Record<string, string> }> {
  if (!process.env.CAIRN_BASE_URL) return { target: await startEmbeddedTarget(AUTH_ENV), credentials: SYSTEM };
  const external = await startTarget();
  if (!external.authHeaders.Authorization) throw new Error('CAIRN_BASE_URL is given without CAIRN_TEST_AUTH: its authentication is taken to be off');
  return { target: { ...external, authHeaders: {} }, credentials: { ...external.authHeaders } };
}
