import { join } from 'node:path';
import { ReaderThreads } from './reader-threads';

describe('ReaderThreads', () => {
  it('answers an error instead of leaving a query waiting when its thread cannot run', async () => {
    const threads = new ReaderThreads(1, join(__dirname, 'no-such-directory', 'catalog.db'), new Map());
    try {
      const selection = { entityTypes: ['dataset'], filter: [], includeRemoved: false };
      await expect(threads.countByType(selection)).rejects.toThrow();
      // While the failing thread waits to be started again, queries are refused at once.
      await expect(threads.countByType(selection)).rejects.toThrow(/restarting|stopped|directory/);
    } finally {
      await threads.close();
    }
  });
});
