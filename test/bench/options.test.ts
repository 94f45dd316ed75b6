/** The bench's command line: defaults scaled by the catalog, and the server warm-up off unless asked. */
import { parseOptions } from '../../bench/options';

describe('bench options', () => {
  it('warms no servers up by default, and for as long as asked', () => {
    expect(parseOptions([]).serverWarmupSeconds).toBe(0);
    expect(parseOptions(['--mode', 'distributed', '--server-warmup-seconds', '240']).serverWarmupSeconds).toBe(240);
  });

  it('refuses an unknown option and a value that is not an integer', () => {
    expect(() => parseOptions(['--server-warmup', '10'])).toThrow(/unknown option --server-warmup/);
    expect(() => parseOptions(['--server-warmup-seconds', 'soon'])).toThrow();
  });
});
