import { isIPv4, isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ROOT } from './root.js';

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

/** A sealing key: base64 of exactly 32 bytes. */
const isSecretsKey = (v: string) => /^[A-Za-z0-9+/_-]{43}=?$/.test(v.trim()) && Buffer.from(v.trim(), 'base64').length === 32;
const secretsKey = z.string().trim().refine(isSecretsKey, 'base64 of 32 random bytes (openssl rand -base64 32)');

/** A yes/no setting: `true` or `1`, `false` or `0`. */
const flagText = z.enum(['true', 'false', '1', '0']);
const isOn = (v: string): boolean => v === 'true' || v === '1';
/** A yes/no setting, `fallback` when unset. */
const flag = (fallback: 'true' | 'false') => flagText.default(fallback).transform(isOn);
/** A yes/no setting that may be left unset (undefined: the code decides). */
const optionalFlag = flagText.optional().transform((v) => (v === undefined ? undefined : isOn(v)));

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** A plan limit: a whole number, or `unlimited` (also unset or empty) for none. */
const limit = z.preprocess(
  (v) => (typeof v === 'string' && (v.trim() === '' || v.trim().toLowerCase() === 'unlimited') ? null : v),
  z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null),
);

/** `127.0.0.1:53`, `[::1]:5353` or an address alone (port 53): the form Node's resolver takes. */
const dnsServer = (v: string): boolean => {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+))(?::(\d{1,5}))?$/.exec(v);
  if (!m) return isIPv6(v);
  const port = m[3] === undefined ? 53 : Number(m[3]);
  return (m[1] !== undefined ? isIPv6(m[1]) : isIPv4(m[2]!)) && port >= 1 && port <= 65_535;
};

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(0, 65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  /**
   * The most PostgreSQL connections this process's pool opens (with `DATABASE_URL`). Every replica has a
   * pool of its own, and their sum (plus a listening connection each) must stay below the server's
   * `max_connections`.
   */
  DATABASE_POOL_MAX: int(2, 1000).default(20),
  /** PostgreSQL's shared_buffers inside the embedded database (PGlite): a size such as 16MB. */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'a size such as 16MB (kB, MB or GB)')
    .default('16MB'),
  EVENTSTORE_URL: optionalString,
  /**
   * The SQL event store writes appends that arrive together in one transaction (docs/architecture.md,
   * "Group commit"); `false` writes each append in a transaction of its own.
   */
  EVENT_STORE_GROUP_COMMIT: flag('true'),
  NATS_URL: optionalString,
  REDIS_URL: optionalUrl,
  /** Prefix of every Redis key, so several installations can share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]*$/).default('qa:'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('QA Platform <no-reply@localhost>'),
  /** The web console's public address, the base of links in mails; unset: the address this process listens on. */
  APP_URL: optionalUrl,
  /** The built web console the gateway serves at `/` (`npm install` / `npm start` build it); absent: no console. */
  CONSOLE_DIR: z.string().min(1).default(join(ROOT, 'console', 'dist')),
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
  /**
   * Seals the secrets of identity providers (client secret, bind password) in events and read models:
   * base64 of 32 random bytes (`openssl rand -base64 32`). Unset: generated once and kept under DATA_DIR
   * (one process; several replicas must share one). docs/operations.md, "Secrets at rest".
   */
  SECRETS_KEY: z.preprocess(emptyAsUnset, secretsKey.optional()),
  /** Older sealing keys (comma-separated) that still open what they sealed while a rotation runs. */
  SECRETS_PREVIOUS_KEYS: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .refine((v) => v.split(',').every((k) => k.trim() === '' || isSecretsKey(k)), 'comma-separated keys, each base64 of 32 bytes')
      .optional(),
  ),
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
  TRUST_PROXY: flag('false'),
  SHUTDOWN_GRACE: duration.default(10_000),
  /**
   * How long a projections runner's lease on a projection lasts without renewal (renewed three times
   * within it): when the holder dies, another runner takes over after at most this plus a third of it.
   */
  PROJECTIONS_LEASE_TTL: duration.default(6_000),
  /** Rate limits at the gateway, per fixed window (0 switches one off); counters in Redis when REDIS_URL is set. */
  RATE_LIMIT_WINDOW: duration.default(60_000),
  /**
   * Requests of one client address that no valid credential answers for (sign-in, public routes,
   * refused credentials); a request with a valid credential counts against that credential's budget or
   * its user's instead, so this never bites before them.
   */
  RATE_LIMIT_PER_ADDRESS: int(0, 10_000_000).default(6_000),
  RATE_LIMIT_PER_USER: int(0, 10_000_000).default(3_000),
  /**
   * Requests of one API key or OAuth client per window, apart from its user's: sized for a CI fleet
   * sharing one credential (100 jobs each polling twice a second fit). An administrator may set one
   * credential's own budget instead (docs/modules/credentials.md, "Rate budget").
   */
  RATE_LIMIT_PER_CREDENTIAL: int(0, 10_000_000).default(12_000),
  /**
   * New device and WebDriver sessions per window of one credential (or of one user with an access
   * token): a guard against abuse that a 50-worker suite never meets; what bounds a fleet is the
   * concurrent-session quota and the queue.
   */
  RATE_LIMIT_NEW_SESSIONS: int(0, 1_000_000).default(600),
  /** How long the answer to a POST with an `Idempotency-Key` is kept and answered again (docs/api-conventions.md, "Idempotency"). */
  IDEMPOTENCY_TTL: duration.default(24 * 3_600_000),
  /** A request holding a key this long without answering (its process died) no longer holds it: a retry runs again. */
  IDEMPOTENCY_IN_FLIGHT_TIMEOUT: duration.default(5 * 60_000),
  /** The largest answer kept for a repeat, in bytes; a larger one is recorded as done but not answered again. */
  IDEMPOTENCY_MAX_ANSWER_BYTES: int(0, 64 * 1024 * 1024).default(1024 * 1024),
  /** The history's chain: a signed checkpoint of a chain once it has moved on by this many events (docs/architecture.md, "The history's chain"). */
  AUDIT_CHECKPOINT_EVENTS: int(1, 10_000_000).default(1000),
  /** ... or once its last checkpoint is this old and it has moved at all (at least 1s). */
  AUDIT_CHECKPOINT_INTERVAL: duration.refine((ms) => ms >= 1000, 'at least 1s').default(10 * 60_000),
  /**
   * Shipping the audit history to a SIEM (docs/operations.md, "Shipping the audit history to a SIEM"):
   * the installation's syslog receiver, `tls://host:port` (RFC 5424 messages, octet-counted, over TLS).
   * Unset: no syslog shipping.
   */
  AUDIT_SYSLOG_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .trim()
      .refine((v) => {
        if (!URL.canParse(v)) return false;
        const u = new URL(v);
        return u.protocol === 'tls:' && u.hostname !== '' && u.port !== '' && (u.pathname === '' || u.pathname === '/') && !u.username && !u.password;
      }, 'a URL tls://host:port (RFC 5425: syslog over TLS), without credentials or path')
      .optional(),
  ),
  /** A PEM file of the certificate authorities the syslog receiver's certificate is checked against; unset: the system's. */
  AUDIT_SYSLOG_CA: optionalString,
  /** The installation's HTTP collector: each batch of audited events is POSTed as JSON lines. Unset: no HTTP shipping. */
  AUDIT_HTTP_URL: z.preprocess(
    emptyAsUnset,
    z
      .url()
      .refine((v) => /^https?:$/.test(new URL(v).protocol) && !new URL(v).username && !new URL(v).password, 'an http:// or https:// URL without credentials (the token goes in AUDIT_HTTP_TOKEN)')
      .optional(),
  ),
  /** The collector's token: sent as `Authorization: Splunk <token>` (splunk-hec) or `Bearer <token>` (jsonl). */
  AUDIT_HTTP_TOKEN: optionalString,
  /** What the HTTP collector is sent: `jsonl` (one export entry a line) or `splunk-hec` (Splunk's HTTP Event Collector shape). */
  AUDIT_HTTP_FORMAT: z.preprocess(emptyAsUnset, z.enum(['jsonl', 'splunk-hec']).default('jsonl')),
  /** Per client address and hour: requests that send mail (password reset, invitations); 0 switches it off. */
  MAIL_MAX_PER_ADDRESS_PER_HOUR: int(0, 1_000_000).default(20),
  /** Mails to one e-mail address per hour (password reset, invitations); 0 switches it off. */
  MAIL_MAX_PER_EMAIL_PER_HOUR: int(0, 1_000_000).default(3),
  /** Sign-ups (`POST /api/v1/auth/signup`) per client address and hour; 0 switches it off. */
  SIGNUP_MAX_PER_ADDRESS_PER_HOUR: int(0, 1_000_000).default(10),
  /**
   * Whether anyone may create a company with `POST /api/v1/auth/signup`. Unset: on, except with
   * `NODE_ENV=production` (a self-hosted installation), where it is off unless set to true.
   */
  PUBLIC_SIGNUP: optionalFlag,
  /**
   * The DNS resolvers that check a domain's verification record, comma-separated `address:port`
   * (`[v6]:port` for IPv6). Unset: the system's resolvers.
   */
  DNS_SERVERS: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .transform((v) => v.split(',').map((s) => s.trim()).filter((s) => s !== ''))
      .refine((list) => list.length > 0 && list.length <= 10 && list.every(dnsServer), 'comma-separated IP addresses with their port: 127.0.0.1:53, [::1]:5353')
      .optional(),
  ),
  /** Device farm: a session without activity for this long is ended. */
  DF_SESSION_IDLE_TIMEOUT: duration.default(15 * 60_000),
  /** Device farm: typed text arriving within this long of the end of the same typist's last text joins its timeline entry (one entry per burst). */
  DF_TYPING_BURST: duration.default(2_000),
  /** Device farm: a session open this long is ended (`max-duration`), unless its workspace's session defaults say otherwise. */
  DF_SESSION_MAX_DURATION: duration.default(24 * 3_600_000),
  /**
   * Device farm: how often the busy-device watchdog checks that every busy device has a live holder
   * (docs/modules/device-health.md, "Never busy for nothing"); a holder silent for two periods is gone.
   */
  DF_WATCHDOG_PERIOD: duration.refine((ms) => ms >= 250 && ms <= 600_000, 'between 250ms and 10m').default(30_000),
  /** Device farm: a host silent for this long has its devices marked offline and its sessions ended. */
  DF_HOST_TIMEOUT: duration.default(15_000),
  /**
   * Device farm: after the service's own message-bus connection comes back, how long hosts have to
   * heartbeat or announce themselves again before they are declared lost (their sessions kept meanwhile).
   */
  DF_HOST_RECONNECT_GRACE: duration.default(60_000),
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
  /** Device farm quotas: the plan's name and limits every company has unless the operator set its own (docs/modules/device-testing.md, "Quotas"). */
  DF_QUOTA_PLAN: z.preprocess(emptyAsUnset, z.string().trim().min(1).max(64).default('default')),
  DF_QUOTA_CONCURRENT_SESSIONS: limit,
  DF_QUOTA_SESSION_MINUTES_PER_MONTH: limit,
  DF_QUOTA_RESERVATION_HOURS_PER_MONTH: limit,
  DF_QUOTA_STORAGE_BYTES: limit,
  DF_QUOTA_API_KEYS: limit,
  /** Health checks: how often overdue checks are looked for (and old heartbeats pruned). */
  HEALTHCHECK_REAPER_INTERVAL: duration.default(5_000),
  /** Health checks: how long heartbeats and metric samples are kept. */
  HEALTHCHECK_RETENTION: duration.default(7 * 86_400_000),
  /** Run a device agent inside this process (with the df service), on the process's bus. */
  AGENT_ENABLED: flag('true'),
  /** Path of the agent's JSON config file (devices, profiles, node name); defaults apply when unset. */
  AGENT_CONFIG: optionalString,
  /** The device host's enrolment token (`dfh_...`); overrides `hostToken` of the agent's config file. */
  AGENT_HOST_TOKEN: optionalString,
  /** How often the agent reads each device's health (`60s`, `500ms`); overrides `healthIntervalMs` of its config file. 500 ms to 1 h. */
  AGENT_HEALTH_INTERVAL: z.preprocess(emptyAsUnset, duration.refine((ms) => ms >= 500 && ms <= 3_600_000, 'between 500ms and 1h').optional()),
  /** How long mending waits for a device it rebooted to come back and finish booting (`3m`, `20s`); overrides `android.rebootWaitMs` of its config file. 1 s to 4 min. */
  AGENT_REBOOT_WAIT: z.preprocess(emptyAsUnset, duration.refine((ms) => ms >= 1_000 && ms <= 240_000, 'between 1s and 4m').optional()),
  /** Session videos on this host at all (`false`: its recordings keep JPEG frames instead); overrides the agent config's `video.enabled`. */
  AGENT_VIDEO_ENABLED: z.preprocess(emptyAsUnset, optionalFlag),
  /** Session videos: libx264's preset on this host (`ultrafast` … `veryslow`; the faster, the less CPU); overrides the agent config's `video.preset`. */
  AGENT_VIDEO_PRESET: z.preprocess(emptyAsUnset, z.enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow']).optional()),
  /** Session videos: the long side at most, in pixels (120 to 4096; default 720); overrides `video.maxSize`. */
  AGENT_VIDEO_MAX_SIZE: z.preprocess(emptyAsUnset, int(120, 4_096).optional()),
  /** Session videos: frames a second of the constant-rate output (1 to 30; default 30); overrides `video.fps`. */
  AGENT_VIDEO_FPS: z.preprocess(emptyAsUnset, int(1, 30).optional()),
  /** Where blobs (files, artifacts, recordings) are kept: `fs` under DATA_DIR/blobs, or an S3-compatible bucket. */
  BLOB_STORE: z.enum(['fs', 's3']).default('fs'),
  /** S3 (BLOB_STORE=s3): the endpoint of an S3-compatible server; unset for AWS itself. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** `endpoint/bucket/key` addressing (most self-hosted servers) rather than `bucket.endpoint/key`. */
  S3_FORCE_PATH_STYLE: flag('true'),
  /** A folder of the bucket for this installation's keys. */
  S3_PREFIX: z.preprocess(emptyAsUnset, z.string().regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/).optional()),
  /** Device farm: largest file accepted for upload, in bytes (413 above). */
  DF_FILE_MAX_BYTES: int(1, Number.MAX_SAFE_INTEGER).default(4 * 1024 * 1024 * 1024),
  /** Device farm: how long an upload or part URL may be used. */
  DF_UPLOAD_URL_TTL: duration.default(15 * 60_000),
  /** Device farm: how long a download URL may be used. */
  DF_DOWNLOAD_URL_TTL: duration.default(5 * 60_000),
  /** Device farm: an upload not confirmed within this time is aborted and its bytes deleted. */
  DF_UPLOAD_EXPIRY: duration.default(24 * 3_600_000),
  /** Device farm: pause between files of a catalog backfill, in milliseconds (spares a busy storage). */
  DF_BACKFILL_THROTTLE_MS: int(0, 60_000).default(0),
  /**
   * Webhooks: the pauses between a delivery's attempts, comma-separated durations; after the last one
   * fails the delivery is failed. The default spreads seven retries over about a day.
   */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .trim()
    .default('5s,5m,30m,2h,5h,8h,8h')
    .transform((v, ctx) => {
      const pauses = v.split(',').map((part) => duration.safeParse(part));
      const bad = pauses.findIndex((p) => !p.success);
      if (bad >= 0 || pauses.length > 50) {
        ctx.addIssue({ code: 'custom', message: bad >= 0 ? `"${v.split(',')[bad]!.trim()}" is not a duration above zero (5s, 30m, 2h)` : 'at most 50 pauses' });
        return z.NEVER;
      }
      return pauses.map((p) => p.data!);
    }),
  /** Webhooks: how long one attempt may take (connect, send, answer) before it counts as failed. */
  WEBHOOK_TIMEOUT: duration.default(10_000),
  /** Webhooks: an endpoint whose last this many deliveries all failed (every retry spent) is disabled. */
  WEBHOOK_DISABLE_AFTER_FAILURES: int(1, 1000).default(5),
  /**
   * Webhooks: whether endpoints may be loopback, private or link-local addresses. Unset: allowed,
   * except with `NODE_ENV=production`, where it is refused unless set to true.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: optionalFlag,
  /**
   * Identity providers: whether a directory (LDAP) may be at a loopback, private or other special-purpose
   * address. Unset: as `WEBHOOK_ALLOW_PRIVATE_URLS`, allowed except with `NODE_ENV=production`. A
   * directory inside the company's network needs it set to true.
   */
  LDAP_ALLOW_PRIVATE_ADDRESSES: optionalFlag,
  /**
   * Metrics (docs/operations.md, "Metrics"): with this set, `GET /metrics` on the process's own port
   * answers Prometheus text to `Authorization: Bearer <token>` only. Unset (and no METRICS_PORT): 404.
   */
  METRICS_TOKEN: z.preprocess(emptyAsUnset, z.string().trim().min(16, 'at least 16 characters').max(512).optional()),
  /** Metrics: a port of their own (bound to HOST) where `/metrics` answers without a token; 0 picks a free one. */
  METRICS_PORT: z.preprocess(emptyAsUnset, int(0, 65535).optional()),
  /** Test management: largest attachment accepted, in bytes. */
  TMT_ATTACHMENT_MAX_BYTES: int(1, 5 * 1024 * 1024 * 1024).default(100 * 1024 * 1024),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_SIGNUP' | 'WEBHOOK_ALLOW_PRIVATE_URLS' | 'LDAP_ALLOW_PRIVATE_ADDRESSES'> & {
  PUBLIC_SIGNUP: boolean;
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean;
  LDAP_ALLOW_PRIVATE_ADDRESSES: boolean;
  dataDir: string;
};

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
  if (parsed.data.BLOB_STORE === 's3' && !parsed.data.S3_BUCKET) throw new ConfigError([{ variable: 'S3_BUCKET', message: 'required when BLOB_STORE=s3' }]);
  const PUBLIC_SIGNUP = parsed.data.PUBLIC_SIGNUP ?? parsed.data.NODE_ENV !== 'production';
  const WEBHOOK_ALLOW_PRIVATE_URLS = parsed.data.WEBHOOK_ALLOW_PRIVATE_URLS ?? parsed.data.NODE_ENV !== 'production';
  const LDAP_ALLOW_PRIVATE_ADDRESSES = parsed.data.LDAP_ALLOW_PRIVATE_ADDRESSES ?? parsed.data.NODE_ENV !== 'production';
  return { ...parsed.data, PUBLIC_SIGNUP, WEBHOOK_ALLOW_PRIVATE_URLS, LDAP_ALLOW_PRIVATE_ADDRESSES, dataDir: resolve(parsed.data.DATA_DIR) };
}
