/** The bench's printed table: each phase's figures, with the cores its threads kept busy. */
import type { LoopResult } from '../../bench/scenarios/closed-loop';
import { tableRows } from '../../bench/report';

const loopOf = (p50: number, p99: number, perSecond: number): LoopResult => ({
  requests: 5000,
  perSecond,
  latencyMs: { p50, p99 },
  errors: 0,
  serverCpuUsPerRequest: 200,
  generatorCpuUsPerRequest: 30,
});

describe('bench table', () => {
  it("prints the reads' figures and what each thread and backend's server did over them", () => {
    const rows = tableRows({
      catalog: { entities: 1000 },
      footprint: { startToHealthyMs: 500, idleRssMb: 120 },
      reads: {
        single: loopOf(0.7, 4.2, 4235),
        batch: loopOf(4.6, 17.4, 720),
        httpFloor: loopOf(0.4, 6.1, 6055),
        serverCoresByThread: { main: 0.94, node: 0.06 },
        backendCores: { mongodb: 0.31 },
        elasticByIndex: [{ index: 'datasetindex_v2', indexMs: 0, docs: 0, refreshMs: 120, mergeMs: 0, totalMs: 120 }],
      },
    });
    const reads = rows.filter(([scenario]) => scenario === 'reads');
    expect(reads.map(([, what]) => what)).toEqual([
      'entitiesV2 get',
      'entitiesV2 batch get of 10',
      'HTTP floor: GET /config',
      'catalog cores busy by thread',
      "backends' servers: cores busy",
      'elasticsearch: datasetindex_v2',
    ]);
    expect(reads[0]![2]).toBe('p50 0.7 / p99 4.2 ms (4235/s, 200 µs CPU each)');
    expect(reads[3]![2]).toBe('main 0.94, node 0.06');
    expect(reads[4]![2]).toBe('mongodb 0.31');
  });

  it('prints no cores row for reads measured without them', () => {
    const rows = tableRows({
      catalog: { entities: 1000 },
      footprint: { startToHealthyMs: 500, idleRssMb: 120 },
      reads: { single: loopOf(1, 2, 100), batch: loopOf(1, 2, 100), httpFloor: loopOf(1, 2, 100) },
    });
    expect(rows.filter(([scenario]) => scenario === 'reads')).toHaveLength(3);
  });
});
