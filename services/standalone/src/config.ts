/** Configuration of the all-in-one embedded service, from the environment. */
import { resolve } from 'node:path';
import { apiConfigFromEnv, type ApiConfig, type Env } from '@cairn/composition';

export interface StandaloneConfig extends ApiConfig {
  readonly dataDir: string;
  readonly durability: 'normal' | 'full';
  /** NODE_ENV=production: secrets must come from the environment, none are generated. */
  readonly production: boolean;
}

export function configFromEnv(env: Env = process.env): StandaloneConfig {
  const durability = env.EMBEDDED_DURABILITY ?? 'normal';
  if (durability !== 'normal' && durability !== 'full') throw new Error(`EMBEDDED_DURABILITY must be normal or full, got '${durability}'`);
  return { ...apiConfigFromEnv(env), dataDir: resolve(env.DATA_DIR ?? './data'), durability, production: env.NODE_ENV === 'production' };
}
