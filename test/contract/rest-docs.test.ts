/**
 * `/restli/docs` is generated from the route table; the table must name every action the server
 * answers and every family of routes the services mount, and only routes they answer.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { SchemaRegistryCore } from '@cairn/events';
import { SCHEMA_REGISTRY_PREFIX, schemaRegistryRouter } from '@cairn/api-rest';
import { call, startEmbeddedTarget, startTarget, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

interface Route {
  resource: string;
  method: string;
  path: string;
  action?: string;
  params: unknown[];
  example: { request: string };
  onlyWhen?: 'gms' | 'auth';
}

/**
 * Every family of routes the services mount, by where it is mounted: the REST routers
 * (libs/api-rest/src/app.ts), /metrics and the session routes (libs/composition/src/api.ts; the
 * session router, libs/api-rest/src/auth/session-routes.ts, only with authentication on), GraphQL
 * and its explorer (libs/api-graphql/src/mount.ts) and the schema registry (services/gms/src/main.ts).
 */
const MOUNTED_FAMILIES = [
  '/aspects',
  '/entities',
  '/entitiesV2',
  '/relationships',
  '/openapi/relationships/v1',
  '/operations',
  '/usageStats',
  '/test',
  '/config',
  '/health',
  '/restli/docs',
  '/metrics',
  '/logIn',
  '/logOut',
  '/api/graphql',
  '/api/v2/graphql',
  '/api/graphiql',
  '/schema-registry/api',
];

const routesOf = async (target: Target) => (await call(target, 'GET', '/restli/docs/routes.json')).body as Route[];
/** A request to a documented path, its path parameters filled in. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x');

/** The actions a resource answers, from its error for an unknown one ("Known actions: a, b"). */
async function servedActions(path: string): Promise<string[]> {
  const res = await call(t, 'POST', `${path}?action=__none__`, {});
  const known = /Known actions: (.*)$/.exec(res.body.message ?? '');
  if (!known) throw new Error(`${path} did not list its actions: ${JSON.stringify(res.body)}`);
  return known[1].split(', ').sort();
}

describe('/restli/docs', () => {
  it('is an HTML page', async () => {
    const res = await call(t, 'GET', '/restli/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.body).toContain('<h1>cairn REST API');
  });

  it('documents exactly the actions each resource answers', async () => {
    const routes = (await call(t, 'GET', '/restli/docs/routes.json')).body as Route[];
    const actionPaths = [...new Set(routes.filter((r) => r.action).map((r) => r.path))];
    for (const path of actionPaths) {
      const documented = routes.filter((r) => r.path === path && r.action).map((r) => r.action!).sort();
      expect({ path, actions: await servedActions(path) }).toEqual({ path, actions: documented });
    }
  });

  it('lists every route family the services mount', async () => {
    const routes = await routesOf(t);
    const listed = (family: string) => routes.some((r) => r.path === family || r.path.startsWith(`${family}/`));
    expect(MOUNTED_FAMILIES.filter((f) => !listed(f))).toEqual([]);
    // And nothing else: every documented route belongs to one of the families.
    expect(routes.filter((r) => !MOUNTED_FAMILIES.some((f) => r.path === f || r.path.startsWith(`${f}/`))).map((r) => r.path)).toEqual([]);
  });

  it('documents routes that the server answers, each with an example', async () => {
    const routes = await routesOf(t);
    // Routes only some services mount are checked below, on such a service.
    for (const r of routes.filter((x) => !x.onlyWhen && !x.action && x.method === 'GET' && !x.path.includes('{'))) {
      const res = await call(t, 'GET', r.path);
      expect({ path: r.path, found: res.status !== 404 }).toEqual({ path: r.path, found: true });
    }
    for (const r of routes) expect(r.example.request.startsWith(`${r.method} `)).toBe(true);
  });

  it('documents the GraphQL endpoints, which answer POSTs', async () => {
    const posts = (await routesOf(t)).filter((x) => x.resource === 'graphql' && x.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual(['/api/graphql', '/api/v2/graphql']);
    for (const r of posts) {
      const res = await call(t, 'POST', r.path, { query: '{ __typename }' });
      expect({ path: r.path, status: res.status, data: res.body?.data }).toEqual({ path: r.path, status: 200, data: { __typename: 'Query' } });
    }
  });

  it('documents the session routes, which a service with authentication on answers', async () => {
    const routes = (await routesOf(t)).filter((r) => r.onlyWhen === 'auth');
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /logIn', 'POST /logOut']);
    const secured = await startEmbeddedTarget({ METADATA_SERVICE_AUTH_ENABLED: 'true' });
    try {
      const logIn = await call(secured, 'POST', '/logIn', { username: 'nobody', password: 'wrong' });
      expect(logIn.status).toBe(401);
      expect((await call(secured, 'POST', '/logOut')).status).toBe(200);
    } finally {
      await secured.close();
    }
  }, 60_000);

  it("documents the schema registry's routes, each answered by the router gms mounts", async () => {
    const documented = (await routesOf(t)).filter((r) => r.resource === 'schema-registry');
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.every((r) => r.onlyWhen === 'gms' && r.path.startsWith(`${SCHEMA_REGISTRY_PREFIX}/`))).toBe(true);
    // The router gms mounts, on its own: a documented route is answered by it (a Confluent body), anything else falls through.
    const app = express();
    app.use(SCHEMA_REGISTRY_PREFIX, schemaRegistryRouter(new SchemaRegistryCore()));
    app.use((_req, res) => void res.status(404).json({ unrouted: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const local: Target = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authHeaders: {}, close: async () => undefined };
    try {
      for (const r of documented) {
        const res = await call(local, r.method, concrete(r.path), r.method === 'POST' ? { schema: '{"type":"string"}' } : undefined);
        expect({ route: `${r.method} ${r.path}`, routed: res.body?.unrouted !== true }).toEqual({ route: `${r.method} ${r.path}`, routed: true });
      }
      const undocumented = await call(local, 'GET', `${SCHEMA_REGISTRY_PREFIX}/mode`);
      expect(undocumented.body).toEqual({ unrouted: true });
    } finally {
      await new Promise((r) => server.close(r));
    }
    // A deployment that serves the registry (gms) answers every documented GET route of it.
    if ((await call(t, 'GET', `${SCHEMA_REGISTRY_PREFIX}/config`)).status === 200) {
      for (const r of documented.filter((x) => x.method === 'GET')) {
        const res = await call(t, 'GET', concrete(r.path));
        expect({ route: r.path, answered: res.status === 200 || typeof res.body?.error_code === 'number' }).toEqual({ route: r.path, answered: true });
      }
    }
  });
});
