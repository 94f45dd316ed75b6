/** Configuration of the all-in-one embedded service, from the environment. */
import { resolve } from 'node:path';
import { apiConfigFromEnv, intFromEnv, type ApiConfig, type Env } from '@cairn/composition';

export interface StandaloneConfig extends ApiConfig {
  readonly dataDir: string;
  readonly durability: 'normal' | 'full';
  /** SEARCH_THREADS: threads answering search queries beside the one that serves HTTP and writes. */
  readonly searchThreads: number;
  /** NODE_ENV=production: secrets must come from the environment, none are generated. */
  readonly production: boolean;
}

const DEFAULT_SEARCH_THREADS = 1;
const MAX_SEARCH_THREADS = 16;

export function configFromEnv(env: Env = process.env): StandaloneConfig {
  const durability = env.EMBEDDED_DURABILITY ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') throw new Error(`EMBEDDED_DURABILITY must be normal or full, got '${durability}'`);
  const searchThreads = intFromEnv(env, 'SEARCH_THREADS', DEFAULT_SEARCH_THREADS);
  // Each thread holds its own connection, page cache and copy of the search catalog.
  if (searchThreads > MAX_SEARCH_THREADS) throw new Error(`SEARCH_THREADS must be at most ${MAX_SEARCH_THREADS}, got ${searchThreads}`);
  return { ...apiConfigFromEnv(env), dataDir: resolve(env.DATA_DIR ?? './data'), durability, searchThreads, production: env.NODE_ENV === 'production' };
}
