/** ingestProposalBatch (all or nothing) and 429 with Retry-After under overload. */
import { call, enc, proposal, startTarget, unique, type Target } from '../support/target';

const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

describe('ingestProposalBatch', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget();
  });
  afterAll(() => t.close());

  it('applies every proposal of the batch and answers their urns', async () => {
    const urns = [datasetUrn(unique('b1')), datasetUrn(unique('b2'))];
    const res = await call(t, 'POST', '/aspects?action=ingestProposalBatch', { proposals: urns.map((u) => proposal(u, 'status', { removed: false }).proposal) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ value: urns });
    for (const u of urns) expect((await call(t, 'GET', `/entitiesV2/${enc(u)}?aspects=List(status)`)).body.aspects.status.value).toEqual({ removed: false });
  });

  it('rejects the whole batch for one bad proposal', async () => {
    const good = datasetUrn(unique('good'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposalBatch', {
      proposals: [proposal(good, 'status', { removed: false }).proposal, proposal(datasetUrn(unique('bad')), 'status', { removed: 'no' }).proposal],
    });
    expect(res.status).toBe(422);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: good })).body).toEqual({ value: false });
  });

  it('rejects an empty batch', async () => {
    expect((await call(t, 'POST', '/aspects?action=ingestProposalBatch', { proposals: [] })).status).toBe(400);
  });
});

const embeddedOnly = process.env.CAIRN_BASE_URL ? describe.skip : describe;

embeddedOnly('backpressure', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ MAX_PENDING_WRITES: '0' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After and stores nothing when writes cannot be admitted', async () => {
    const urn = datasetUrn(unique('overload'));
    const res = await call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body.message).toMatch(/Too many writes in flight/);
    expect((await call(t, 'POST', '/entities?action=exists', { urn })).body).toEqual({ value: false });
  });
});
