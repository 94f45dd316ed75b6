/** `/restli/docs` is generated from the route table; the table must name every action the server answers. */
import { call, startTarget, type Target } from '../support/target';

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
}

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

  it('documents routes that the server answers, each with an example', async () => {
    const routes = (await call(t, 'GET', '/restli/docs/routes.json')).body as Route[];
    for (const r of routes.filter((x) => !x.action && x.method === 'GET' && !x.path.includes('{'))) {
      const res = await call(t, 'GET', r.path);
      expect({ path: r.path, found: res.status !== 404 }).toEqual({ path: r.path, found: true });
    }
    for (const r of routes) expect(r.example.request.startsWith(`${r.method} `)).toBe(true);
  });
});
