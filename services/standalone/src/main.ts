/** `npm start`: the whole catalog in one process on durable embedded storage. */
import { createLogger } from '@cairn/core';
import { configFromEnv } from './config';
import { startEmbeddedCatalog } from './embedded-catalog';

async function main(): Promise<void> {
  const log = createLogger('standalone');
  const catalog = await startEmbeddedCatalog(configFromEnv());
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    catalog.close().then(
      () => process.exit(0),
      (err) => {
        log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', service: 'standalone', msg: 'failed to start', error: String(err?.stack ?? err) })}\n`);
  process.exit(1);
});
