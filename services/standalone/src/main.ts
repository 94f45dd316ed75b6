/** `npm start`: the whole catalog in one process on durable embedded storage. */
import { runService } from '@cairn/composition';
import { configFromEnv } from './config';
import { startEmbeddedCatalog } from './embedded-catalog';

runService('standalone', () => startEmbeddedCatalog(configFromEnv()));
