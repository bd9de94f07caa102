import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resetProjection } from '#projections/runner.js';
import { openPglite } from '#shared/db/index.js';
import { migrateSqlEventStore } from '#shared/es/index.js';
import { ALL_PROJECTIONS, startProcess, type RunningProcess } from '#services/run.js';
import type { ServiceName } from '#services/app.js';

export interface TestServer {
  url: string;
  process: RunningProcess;
  dataDir: string;
  stop(): Promise<void>;
}

const INITDB = fileURLToPath(new URL('../../shared/db/pglite-initdb.mjs', import.meta.url));

/**
 * A PGlite data directory as a first start leaves it — initdb'd, the event store's tables and every read
 * model's tables applied (the digests in `schema_digests` included, so a server opening a copy runs no DDL)
 * — made once per PGlite version and schema text on this machine, and copied into each test server's new
 * data directory. initdb alone takes seconds and the DDL most of a second; a copy takes a fraction of one.
 * Made in a directory of its own and renamed into place, so a run stopped halfway leaves no half-made
 * template. A template made from other schema text is only slower to start from: applySchema applies what
 * changed, and a changed projection version rebuilds as on any start.
 */
export async function pgliteTemplate(): Promise<string> {
  const pkg = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
  const version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  const schemas = createHash('sha256');
  for (const p of ALL_PROJECTIONS) schemas.update(`${p.name}:${p.version}:${p.schema}\n`);
  const template = join(tmpdir(), `qa-pglite-template-${version}-${schemas.digest('hex').slice(0, 12)}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const making = mkdtempSync(`${template}-making-`);
  execFileSync(process.execPath, [INITDB, making], { stdio: 'ignore' });
  const db = await openPglite(making);
  try {
    await migrateSqlEventStore(db);
    for (const p of ALL_PROJECTIONS) await resetProjection(db, p);
  } finally {
    await db.close();
  }
  try {
    renameSync(making, template);
  } catch {
    // Another test file made it first.
    rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/** Gives `dataDir` the template's embedded database unless it has one already (a restart on the same directory). */
export async function seedPglite(dataDir: string): Promise<void> {
  const target = join(dataDir, 'pglite');
  if (!existsSync(join(target, 'PG_VERSION'))) cpSync(await pgliteTemplate(), target, { recursive: true });
}

/**
 * Starts the real server on a free loopback port, embedded defaults (PGlite in a new temporary data
 * directory, a copy of the template unless the directory has a database) unless `env` says otherwise.
 */
export async function startTestServer(env: Record<string, string> = {}, services?: ServiceName[]): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'qa-test-'));
  if (!env.DATABASE_URL) await seedPglite(dataDir);
  const running = await startProcess(
    {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: dataDir,
      TZ: process.env.TZ,
      // Tests send bursts from one address and user; rate limits are tested where they are switched on.
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_PER_CREDENTIAL: '0',
      RATE_LIMIT_NEW_SESSIONS: '0',
      MAIL_MAX_PER_ADDRESS_PER_HOUR: '0',
      MAIL_MAX_PER_EMAIL_PER_HOUR: '0',
      SIGNUP_MAX_PER_ADDRESS_PER_HOUR: '0',
      ...env,
    },
    services,
  );
  return {
    url: running.url,
    process: running,
    dataDir,
    async stop() {
      await running.stop();
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A real HTTP request with a JSON body; the answer parsed when it is JSON. */
export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string | Uint8Array; token?: string; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(new URL(path, base), { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/**
 * The error code of an answer, whatever envelope carries it: the platform's `code`, the `/v1`
 * envelope's `error.code`, a W3C WebDriver `value.error`, or an RFC 6749 `error`.
 */
export function errorCode(res: { body: unknown }): string | undefined {
  const b = res.body as { code?: string; error?: string | { code?: string }; value?: { error?: string } } | null;
  if (!b || typeof b !== 'object') return undefined;
  return b.code ?? (typeof b.error === 'object' ? b.error?.code : b.error) ?? b.value?.error;
}
