import { resolve } from 'node:path';
import { z } from 'zod';

/** An empty variable counts as unset, so `FOO=` in a compose file or shell means "not configured". */
const emptyAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const optionalUrl = z.preprocess(emptyAsUnset, z.url().optional());
const optionalString = z.preprocess(emptyAsUnset, z.string().trim().optional());

/** `8h`, `15m`, `30d`, `45s` or plain seconds, to milliseconds. */
const duration = z
  .string()
  .trim()
  .regex(/^\d+(ms|s|m|h|d)?$/, 'a duration such as 8h, 15m, 30d or a number of seconds')
  .transform((v) => {
    const m = /^(\d+)(ms|s|m|h|d)?$/.exec(v)!;
    const n = Number(m[1]);
    const unit = m[2] ?? 's';
    const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!;
    return n * factor;
  })
  .refine((ms) => ms > 0, 'must be greater than zero');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  EVENTSTORE_URL: optionalString,
  NATS_URL: optionalString,
  REDIS_URL: optionalUrl,
  /** Prefix of every Redis key, so several installations can share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]*$/).default('qa:'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('QA Platform <no-reply@localhost>'),
  APP_URL: z.url().default('http://localhost:8080'),
  /** The built web console the gateway serves at `/` (`npm install` / `npm start` build it); absent: no console. */
  CONSOLE_DIR: z.string().min(1).default(resolve(import.meta.dirname, '..', 'console', 'dist')),
  PLATFORM_DOMAIN: z
    .string()
    .trim()
    .regex(/^[a-z0-9.-]+$/i, 'a bare domain such as example.com')
    .default('localhost'),
  ACCESS_TOKEN_TTL: duration.default(8 * 3_600_000),
  REFRESH_TOKEN_TTL: duration.default(30 * 86_400_000),
  RESET_TOKEN_TTL: duration.default(3_600_000),
  /** Lifetime of an OAuth client-credentials access token (`POST /oauth/token`, the `/v1` set). */
  OAUTH_TOKEN_TTL: duration.default(3_600_000),
  JWT_ALG: z.enum(['EdDSA', 'ES256']).default('EdDSA'),
  /** PKCS#8 PEM of the signing key; generated and kept under DATA_DIR when absent. */
  JWT_PRIVATE_KEY: optionalString,
  JWT_KEY_ID: optionalString,
  /** Extra public keys (JWKS JSON) still accepted during a key rotation. */
  JWT_EXTRA_JWKS: optionalString,
  JWT_ISSUER: z.string().default('qa-platform'),
  BOOTSTRAP_ADMIN_EMAIL: z.preprocess(emptyAsUnset, z.email().optional()),
  BOOTSTRAP_ADMIN_PASSWORD: z.preprocess(emptyAsUnset, z.string().min(8).optional()),
  BODY_LIMIT: int(1024, 1024 * 1024 * 1024).default(1024 * 1024),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: int(1, 1000).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: int(1, 100000).default(50),
  LOGIN_THROTTLE_WINDOW: duration.default(15 * 60_000),
  /** Which services this process runs: `all`, or a comma-separated list of gateway,organization,... */
  SERVICES: z.string().default('all'),
  /** When set, the gateway forwards these prefixes over HTTP instead of calling the module in-process. */
  ORGANIZATION_URL: optionalUrl,
  DF_URL: optionalUrl,
  TMT_URL: optionalUrl,
  HEALTHCHECK_URL: optionalUrl,
  AUTORUNNER_URL: optionalUrl,
  /** Trust X-Forwarded-For from a proxy in front of the gateway. */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  SHUTDOWN_GRACE: duration.default(10_000),
  /** Whether anyone may create a company with `POST /api/v1/auth/signup`; a self-hosted farm usually turns it off. */
  PUBLIC_SIGNUP: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Device farm: a session without activity for this long is ended. */
  DF_SESSION_IDLE_TIMEOUT: duration.default(15 * 60_000),
  /** Device farm: a host silent for this long has its devices marked offline and its sessions ended. */
  DF_HOST_TIMEOUT: duration.default(15_000),
  /** Device farm: how long preparing a device for a new session may take. */
  DF_PREPARE_TIMEOUT: duration.default(60_000),
  /** Device farm: how long one device command (control, screenshot, ...) may take. */
  DF_COMMAND_TIMEOUT: duration.default(30_000),
  /** Device farm: how long a WebDriver new-session request waits in the queue for a free device (`/df/wd`). */
  DF_WD_QUEUE_TIMEOUT: duration.default(60_000),
  /**
   * Device farm: the token of a pool of hosts shared by every company (an operator setting, off when unset).
   * A host that says hello with it serves all companies; any other host must be enrolled.
   */
  DF_SHARED_POOL_TOKEN: z.preprocess(emptyAsUnset, z.string().min(32, 'at least 32 characters').max(512).optional()),
  /** Device farm: a device booking whose holder opens no session within this time of its start expires. */
  DF_RESERVATION_GRACE: duration.default(10 * 60_000),
  /** Health checks: how often overdue checks are looked for (and old heartbeats pruned). */
  HEALTHCHECK_REAPER_INTERVAL: duration.default(5_000),
  /** Health checks: how long heartbeats and metric samples are kept. */
  HEALTHCHECK_RETENTION: duration.default(7 * 86_400_000),
  /** Run a device agent inside this process (with the df service), on the process's bus. */
  AGENT_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Path of the agent's JSON config file (devices, profiles, node name); defaults apply when unset. */
  AGENT_CONFIG: optionalString,
  /** The device host's enrolment token (`dfh_...`); overrides `hostToken` of the agent's config file. */
  AGENT_HOST_TOKEN: optionalString,
  /** Test management: largest attachment accepted, in bytes. */
  TMT_ATTACHMENT_MAX_BYTES: int(1, 5 * 1024 * 1024 * 1024).default(100 * 1024 * 1024),
});

export type Config = z.infer<typeof schema> & { dataDir: string };

export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; a bad value throws `ConfigError` naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({ variable: String(i.path[0] ?? '?'), message: i.message })),
    );
  }
  return { ...parsed.data, dataDir: resolve(parsed.data.DATA_DIR) };
}
