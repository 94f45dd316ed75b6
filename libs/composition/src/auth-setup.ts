/** Authentication for an API process: its secrets and services. */
import type { Logger } from '@cairn/core';
import { createAuthServices, resolveAuthSecrets, type AuthServices, type AuthSettings, type Proposer, type SecretSource } from '@cairn/auth';
import type { AspectReads } from '@cairn/ports';

export function setUpAuth(settings: AuthSettings, source: SecretSource, store: AspectReads, proposer: Proposer, logger: Logger): AuthServices {
  const secrets = resolveAuthSecrets(settings, source);
  if (secrets && !(settings.signingKey && settings.salt)) logger[settings.enabled ? 'warn' : 'debug']('token signing key and salt generated for development; set DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT in production', { file: source.generatedFile });
  if (settings.enabled && !secrets?.systemClientSecret) logger.warn('DATAHUB_SYSTEM_CLIENT_SECRET is not set: the system client cannot authenticate');
  return createAuthServices(settings, secrets, store, proposer);
}
