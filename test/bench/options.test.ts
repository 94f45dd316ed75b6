/** The bench's command line: defaults scaled by the catalog, the server warm-up and the batch load off unless asked. */
import { parseOptions } from '../../bench/options';

describe('bench options', () => {
  it('warms no servers up by default, and for as long as asked', () => {
    expect(parseOptions([]).serverWarmupSeconds).toBe(0);
    expect(parseOptions(['--mode', 'distributed', '--server-warmup-seconds', '240']).serverWarmupSeconds).toBe(240);
  });

  it('loads the catalog one proposal per request unless a load batch size is given', () => {
    expect(parseOptions([]).loadBatchSize).toBeUndefined();
    expect(parseOptions(['--entities', '1000000', '--load-batch-size', '200']).loadBatchSize).toBe(200);
    expect(() => parseOptions(['--load-batch-size', '0'])).toThrow(/positive integer/);
  });

  it('refuses an unknown option and a value that is not an integer', () => {
    expect(() => parseOptions(['--server-warmup', '10'])).toThrow(/unknown option --server-warmup/);
    expect(() => parseOptions(['--server-warmup-seconds', 'soon'])).toThrow();
  });
});
