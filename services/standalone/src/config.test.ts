import { configFromEnv } from './config';

describe('standalone configuration', () => {
  it('runs search on one reader thread unless told otherwise', () => {
    expect(configFromEnv({}).searchThreads).toBe(1);
    expect(configFromEnv({ SEARCH_THREADS: '0' }).searchThreads).toBe(0);
    expect(configFromEnv({ SEARCH_THREADS: '4' }).searchThreads).toBe(4);
  });

  it('refuses a SEARCH_THREADS that is not a whole number or is more than 16', () => {
    expect(() => configFromEnv({ SEARCH_THREADS: 'two' })).toThrow(/SEARCH_THREADS must be a non-negative integer, got 'two'/);
    expect(() => configFromEnv({ SEARCH_THREADS: '-1' })).toThrow(/SEARCH_THREADS must be a non-negative integer/);
    expect(() => configFromEnv({ SEARCH_THREADS: '17' })).toThrow(/SEARCH_THREADS must be at most 16, got 17/);
  });
});
