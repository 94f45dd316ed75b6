/** Authentication and hardening settings, from the environment (names follow the reference where it has one). */
import { TOKEN_ISSUER } from './access-tokens';

export type Env = Readonly<Record<string, string | undefined>>;

export interface AuthSettings {
  /** METADATA_SERVICE_AUTH_ENABLED: every endpoint but /health, /config and /logIn needs credentials. */
  readonly enabled: boolean;
  readonly signingKey?: string;
  readonly salt?: string;
  readonly issuer: string;
  readonly systemClientId: string;
  readonly systemClientSecret?: string;
  readonly rootUser: string;
  readonly rootPassword?: string;
  readonly sessionTtlMs: number;
  /** How long token, identity and policy lookups are cached. */
  readonly cacheMs: number;
  /** Requests per minute per actor (the system client is not limited); 0 = no limit. */
  readonly rateLimitPerMinute: number;
  /** Failed logins and failed authentications per minute per client address. */
  readonly failedAuthPerMinute: number;
  readonly corsOrigins: readonly string[];
  readonly graphqlIntrospection: boolean;
  /** Whether the session cookie is marked Secure; `auto` = when the request came over HTTPS. */
  readonly cookieSecure: 'auto' | 'always' | 'never';
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, got '${raw}'`);
  return raw === 'true';
}

const optional = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

export function authSettingsFromEnv(env: Env, defaults: { enabled: boolean }): AuthSettings {
  const cookieSecure = env.AUTH_COOKIE_SECURE || 'auto';
  if (cookieSecure !== 'auto' && cookieSecure !== 'always' && cookieSecure !== 'never') throw new Error(`AUTH_COOKIE_SECURE must be auto, always or never, got '${cookieSecure}'`);
  return {
    enabled: bool(env, 'METADATA_SERVICE_AUTH_ENABLED', defaults.enabled),
    ...(optional(env.DATAHUB_TOKEN_SERVICE_SIGNING_KEY) ? { signingKey: env.DATAHUB_TOKEN_SERVICE_SIGNING_KEY } : {}),
    ...(optional(env.DATAHUB_TOKEN_SERVICE_SALT) ? { salt: env.DATAHUB_TOKEN_SERVICE_SALT } : {}),
    issuer: optional(env.DATAHUB_TOKEN_SERVICE_ISSUER) ?? TOKEN_ISSUER,
    systemClientId: optional(env.DATAHUB_SYSTEM_CLIENT_ID) ?? '__datahub_system',
    ...(optional(env.DATAHUB_SYSTEM_CLIENT_SECRET) ? { systemClientSecret: env.DATAHUB_SYSTEM_CLIENT_SECRET } : {}),
    rootUser: optional(env.AUTH_ROOT_USER) ?? 'datahub',
    ...(optional(env.AUTH_ROOT_PASSWORD) ? { rootPassword: env.AUTH_ROOT_PASSWORD } : {}),
    sessionTtlMs: nonNegativeInt(env, 'AUTH_SESSION_TTL_HOURS', 24) * 3600 * 1000,
    cacheMs: nonNegativeInt(env, 'AUTH_CACHE_MS', 1000),
    rateLimitPerMinute: nonNegativeInt(env, 'RATE_LIMIT_PER_MINUTE', 20_000),
    failedAuthPerMinute: nonNegativeInt(env, 'AUTH_FAILURES_PER_MINUTE', 30),
    corsOrigins: (env.CORS_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', true),
    cookieSecure,
  };
}
