/**
 * The token signing key, the token-id salt and the system client's secret. They come from the
 * environment; a development (embedded) service without them generates them once into its data
 * directory (readable by its owner only), while a production service refuses to start.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomSecret } from './secrets';
import type { AuthSettings } from './auth-settings';

export interface AuthSecrets {
  readonly signingKey: string;
  readonly salt: string;
  /** Undefined: the system client cannot authenticate. */
  readonly systemClientSecret?: string;
}

const MIN_KEY_LENGTH = 32;

export interface SecretSource {
  /** Production services never generate secrets. */
  readonly production: boolean;
  /** Where a development service keeps generated secrets. */
  readonly generatedFile?: string;
}

function generated(file: string): AuthSecrets {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as AuthSecrets;
  const secrets = { signingKey: randomSecret(), salt: randomSecret(), systemClientSecret: randomSecret() };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600, flag: 'wx' });
  return secrets;
}

/** Undefined when no key is configured and none may be generated (authentication disabled in production). */
export function resolveAuthSecrets(settings: AuthSettings, source: SecretSource): AuthSecrets | undefined {
  if (settings.signingKey && settings.signingKey.length < MIN_KEY_LENGTH) throw new Error(`DATAHUB_TOKEN_SERVICE_SIGNING_KEY must be at least ${MIN_KEY_LENGTH} characters`);
  if (settings.signingKey && settings.salt) {
    return { signingKey: settings.signingKey, salt: settings.salt, ...(settings.systemClientSecret ? { systemClientSecret: settings.systemClientSecret } : {}) };
  }
  if (source.production || !source.generatedFile) {
    if (!settings.enabled) return undefined;
    throw new Error('Authentication is enabled but DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT are not both set; refusing to start');
  }
  const made = generated(source.generatedFile);
  return {
    signingKey: settings.signingKey ?? made.signingKey,
    salt: settings.salt ?? made.salt,
    systemClientSecret: settings.systemClientSecret ?? made.systemClientSecret,
  };
}
