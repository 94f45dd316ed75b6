import { kafkaRequestQueueClass, quietIdleRequestQueues } from './idle-request-queues';

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(maxInFlightRequests: number | null) {
  const RequestQueue = kafkaRequestQueueClass();
  return new RequestQueue({ maxInFlightRequests, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'localhost:9092', logger });
}

/** A request as kafkajs's connection pushes it; `sent` counts the times it went out. */
function request(correlationId: number, sent: number[]) {
  return { entry: { correlationId, apiKey: 1, apiName: 'Fetch', apiVersion: 11 }, expectResponse: true, sendRequest: () => sent.push(correlationId) };
}

describe('kafkajs request queues', () => {
  beforeAll(() => quietIdleRequestQueues());

  it('arm no timer once nothing waits, so an idle connection does not wake its process', () => {
    const q = queue(null);
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still send a request that had to wait, once its turn comes', async () => {
    const sent: number[] = [];
    const q = queue(1) as ReturnType<typeof queue> & { push(r: unknown): void; inflight: Map<number, unknown> };
    q.push(request(1, sent));
    q.push(request(2, sent));
    expect(sent).toEqual([1]);
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    // The first one answered: the in-flight slot is free when the scheduled check runs.
    q.inflight.delete(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent).toEqual([1, 2]);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('wait out a broker throttle before sending', async () => {
    const sent: number[] = [];
    const q = queue(null) as ReturnType<typeof queue> & { push(r: unknown): void };
    q.throttledUntil = Date.now() + 40;
    q.push(request(1, sent));
    expect(sent).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 15));
    expect(sent).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([1]);
  });
});
