/** The bench says which of a deployment's Elasticsearch indices a scenario's server time went to. */
import { formatIndexWork, indexWorkBetween, indexWorkOf, modelIndexName, readIndexWork, readServerWarmth, warmthOf, type IndexWorkReading } from '../../bench/deployments/elastic-work';
import { deleteIndicesWithPrefix, describeWithElastic, ELASTICSEARCH_URL, scratchIndexPrefix } from '../ports/elastic-server';

const stats = (indexMs: number, docs: number, refreshMs: number, mergeMs: number) => ({
  total: { indexing: { index_total: docs, index_time_in_millis: indexMs }, refresh: { total_time_in_millis: refreshMs }, merges: { total_time_in_millis: mergeMs } },
});

describe("Elasticsearch's work by index", () => {
  it("reads the deployment's own indices from the stats, leaving other runs' out", () => {
    const work = indexWorkOf(
      {
        indices: {
          bench1main_datasetindex_v2_c1edb591ed: stats(14728, 7126, 5608, 3094),
          bench1mainx_datasetindex_v2_c1edb591ed: stats(1, 1, 1, 1),
          bench1warmup_graph_service_v1_67f2dfc14b: stats(5, 5, 5, 5),
          bench1main_tagindex_v2_ae87031bc9: {},
        },
      },
      'bench1main',
    );
    expect(work).toEqual({
      bench1main_datasetindex_v2_c1edb591ed: { indexMs: 14728, docs: 7126, refreshMs: 5608, mergeMs: 3094 },
      bench1main_tagindex_v2_ae87031bc9: { indexMs: 0, docs: 0, refreshMs: 0, mergeMs: 0 },
    });
  });

  it('names an index as the model does, without the prefix and the version hash', () => {
    expect(modelIndexName('bench1main_datasetindex_v2_c1edb591ed', 'bench1main')).toBe('datasetindex_v2');
    expect(modelIndexName('bench1main_dataset_datasetprofileaspect_v1_2f34abc0b4', 'bench1main')).toBe('dataset_datasetprofileaspect_v1');
    expect(modelIndexName('bench1main_system_metadata_service_v1', 'bench1main')).toBe('system_metadata_service_v1');
  });

  it('gives the work between two readings, busiest first, counting new indices from zero and leaving idle ones out', () => {
    const before: IndexWorkReading = {
      prefix: 'p',
      byIndex: {
        p_datasetindex_v2_0123456789: { indexMs: 1000, docs: 100, refreshMs: 200, mergeMs: 0 },
        p_tagindex_v2_0123456789: { indexMs: 10, docs: 5, refreshMs: 3, mergeMs: 0 },
      },
    };
    const after: IndexWorkReading = {
      prefix: 'p',
      byIndex: {
        p_datasetindex_v2_0123456789: { indexMs: 3000, docs: 1100, refreshMs: 700, mergeMs: 300 },
        p_tagindex_v2_0123456789: { indexMs: 10, docs: 5, refreshMs: 3, mergeMs: 0 },
        p_graph_service_v1_abcdefabcd: { indexMs: 4000, docs: 40000, refreshMs: 100, mergeMs: 50 },
      },
    };
    expect(indexWorkBetween(before, after)).toEqual([
      { index: 'graph_service_v1', indexMs: 4000, docs: 40000, refreshMs: 100, mergeMs: 50, totalMs: 4150 },
      { index: 'datasetindex_v2', indexMs: 2000, docs: 1000, refreshMs: 500, mergeMs: 300, totalMs: 2800 },
    ]);
  });

  it('prints the time a document took to index', () => {
    expect(formatIndexWork({ indexMs: 14728, docs: 7126, refreshMs: 5608, mergeMs: 3094 })).toBe(
      '14.7 s indexing 7126 documents (2.07 ms each), refresh 5.6 s, merges 3.1 s',
    );
    expect(formatIndexWork({ indexMs: 0, docs: 0, refreshMs: 40, mergeMs: 0 })).toBe('0.0 s indexing 0 documents, refresh 0.0 s, merges 0.0 s');
  });

  it('has nothing to read where no server answers', async () => {
    await expect(readIndexWork('http://127.0.0.1:1', 'p')).resolves.toBeUndefined();
    await expect(readServerWarmth('http://127.0.0.1:1')).resolves.toBeUndefined();
  });

  it('gives the time up and CPU spent, in seconds, of the node that has spent the least CPU', () => {
    const node = (upMs: number, cpuMs: number) => ({ jvm: { uptime_in_millis: upMs }, process: { cpu: { total_in_millis: cpuMs } } });
    expect(warmthOf({ nodes: { a: node(95_400, 41_600), b: node(600_000, 30_200) } })).toEqual({ upSeconds: 600, cpuSeconds: 30 });
    expect(warmthOf({ nodes: { a: node(95_400, 41_600) } })).toEqual({ upSeconds: 95, cpuSeconds: 42 });
    expect(warmthOf({ nodes: { a: { jvm: { uptime_in_millis: 1000 } } } })).toBeUndefined();
    expect(warmthOf({})).toBeUndefined();
  });
});

describeWithElastic("Elasticsearch's work by index, read from the server", () => {
  const prefix = scratchIndexPrefix();
  afterAll(() => deleteIndicesWithPrefix(prefix));

  it('counts the documents indexed into an index of the prefix between two readings', async () => {
    const index = `${prefix}_datasetindex_v2_0123456789`;
    await fetch(`${ELASTICSEARCH_URL}/${index}`, { method: 'PUT' });
    const before = await readIndexWork(ELASTICSEARCH_URL, prefix);
    const bulk = Array.from({ length: 20 }, (_, i) => `{"index":{"_index":"${index}","_id":"d${i}"}}\n{"name":"dataset ${i}"}\n`).join('');
    const res = await fetch(`${ELASTICSEARCH_URL}/_bulk?refresh=true`, { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson' }, body: bulk });
    expect(((await res.json()) as { errors: boolean }).errors).toBe(false);
    const after = await readIndexWork(ELASTICSEARCH_URL, prefix);
    expect(before?.byIndex[index]?.docs).toBe(0);
    const work = indexWorkBetween(before!, after!);
    expect(work.map((w) => [w.index, w.docs])).toEqual([['datasetindex_v2', 20]]);
    expect(work[0]!.refreshMs).toBeGreaterThanOrEqual(0);
  });

  it("reads the server's time up and the CPU it has spent", async () => {
    const warmth = await readServerWarmth(ELASTICSEARCH_URL);
    expect(warmth?.upSeconds).toBeGreaterThan(0);
    expect(warmth?.cpuSeconds).toBeGreaterThan(0);
  });
});
