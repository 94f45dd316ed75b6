/**
 * A deployment with authentication on refuses whoever brings no valid credentials. In CI's second
 * pass this is the distributed gms (authentication on by default; CAIRN_BASE_URL with
 * CAIRN_TEST_AUTH, the system client's header); on the embedded default, a catalog started with
 * authentication on. Skipped for a deployment given without credentials (authentication off).
 *
 * Only bearer tokens are sent wrong here: wrong system client secrets are counted per address
 * (AUTH_FAILURES_PER_MINUTE), and this suite shares its address with every other one.
 */
import { AUTH_TARGET_AVAILABLE, bearer, startAuthTarget } from '../support/auth';
import { call, enc, eventually, proposal, unique, type Reply, type Target } from '../support/target';

const describeWithAuth = AUTH_TARGET_AVAILABLE ? describe : describe.skip;

describeWithAuth('a deployment with authentication on', () => {
  let t: Target;
  let credentials: Record<string, string>;
  const DATASET = `urn:li:dataset:(urn:li:dataPlatform:hive,${unique('auth_deployment')},PROD)`;

  beforeAll(async () => {
    ({ target: t, credentials } = await startAuthTarget());
  });
  afterAll(() => t?.close());

  type Request = (headers: Record<string, string>) => Promise<Reply>;
  const REST: [string, Request][] = [
    ['a REST read', (h) => call(t, 'GET', `/entitiesV2/${enc(DATASET)}?aspects=List(datasetProperties)`, undefined, h)],
    ['a REST read under /api/gms', (h) => call(t, 'GET', `/api/gms/entitiesV2/${enc(DATASET)}?aspects=List(datasetProperties)`, undefined, h)],
    ['a REST write', (h) => call(t, 'POST', '/aspects?action=ingestProposal', proposal(DATASET, 'datasetProperties', { description: 'written' }), h)],
    ['an operations call', (h) => call(t, 'POST', '/operations?action=getIndexSizes', {}, h)],
  ];
  const graphql: Request = (h) => call(t, 'POST', '/api/graphql', { query: 'query($urn: String!) { dataset(urn: $urn) { urn } }', variables: { urn: DATASET } }, h);
  const written = async () => (await call(t, 'POST', '/entities?action=exists', { urn: DATASET }, credentials)).body?.value === true;

  const expectRestliRefusal = (name: string, res: Reply) => {
    expect({ name, status: res.status }).toEqual({ name, status: 401 });
    expect(res.headers.get('x-restli-error-response')).toBe('true');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toEqual({ exceptionClass: expect.stringMatching(/\S/), message: expect.stringMatching(/\S/), status: 401 });
  };

  it.each(REST)('refuses %s without credentials: 401 in the Rest.li error shape', async (name, request) => {
    const res = await request({});
    expectRestliRefusal(name, res);
    expect(res.body.message).toMatch(/Authentication required/);
  });

  it.each(REST)('refuses %s with a garbage bearer token: 401', async (name, request) => {
    expectRestliRefusal(name, await request(bearer('garbage.not-a.token')));
  });

  it('refuses GraphQL without credentials or with a garbage token: 401, errors in the GraphQL shape', async () => {
    for (const headers of [{}, bearer('garbage.not-a.token')]) {
      const res = await graphql(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body).toEqual({ errors: [{ message: expect.stringMatching(/\S/), extensions: { code: 'UNAUTHENTICATED' } }] });
    }
  });

  it('wrote nothing for the refused writes', async () => {
    expect(await written()).toBe(false);
  });

  it('answers the credentials it was given (the system client): REST reads, writes, operations, GraphQL', async () => {
    for (const [name, request] of REST) {
      const res = await request(credentials);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
    await eventually(written);
    const read = await call(t, 'GET', `/entitiesV2/${enc(DATASET)}?aspects=List(datasetProperties)`, undefined, credentials);
    expect(read.body.aspects.datasetProperties.value.description).toBe('written');
    const gql = await graphql(credentials);
    expect(gql.status).toBe(200);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data).toEqual({ dataset: { urn: DATASET } });
  });

  it('leaves /health and /config open, under every prefix', async () => {
    for (const path of ['/health', '/config', '/api/gms/health', '/api/gms/config', '/gms/config']) {
      const res = await call(t, 'GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });
});
