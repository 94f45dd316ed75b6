/** ingestProposalBatch (all or nothing) and 429 with Retry-After under overload. */
import { connect, type Socket } from 'node:net';
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

embeddedOnly('admission of request bodies', () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ MAX_INFLIGHT_BODY_BYTES: '2000' });
  });
  afterAll(() => t.close());

  /** A write whose head declares 1,900 bytes of body that are still coming: they count as in flight. */
  function slowWrite(): Promise<Socket> {
    const { hostname, port } = new URL(t.baseUrl);
    return new Promise((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /aspects?action=ingestProposal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1900\r\n\r\n{"proposal":');
        resolve(socket);
      });
    });
  }

  it('answers 429 with Retry-After and stores nothing while other bodies fill the bound, and admits writes again once they are done', async () => {
    const write = (urn: string) => call(t, 'POST', '/aspects?action=ingestProposal', proposal(urn, 'status', { removed: false }));
    const slow = await slowWrite();
    let refusedUrn = datasetUrn(unique('refused'));
    let refused = await write(refusedUrn);
    for (let i = 0; i < 50 && refused.status !== 429; i++) refused = await write((refusedUrn = datasetUrn(unique('refused'))));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.message).toMatch(/Too many request bytes in flight/);
    expect((await call(t, 'POST', '/entities?action=exists', { urn: refusedUrn })).body).toEqual({ value: false });
    slow.destroy();
    const urn = datasetUrn(unique('admitted'));
    let accepted = await write(urn);
    for (let i = 0; i < 50 && accepted.status === 429; i++) accepted = await write(urn);
    expect(accepted.status).toBe(200);
    expect((await call(t, 'GET', `/entitiesV2/${enc(urn)}?aspects=List(status)`)).body.aspects.status.value).toEqual({ removed: false });
  });
});
