/*
 * What every bench step that starts the platform shares: the server's environment (production mode,
 * a port of its own, warnings only, a bootstrap administrator), signing that administrator in, and the
 * agent config of one headless Chromium device.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type DestinationStream } from 'pino';
import { startProcess, type RunningProcess } from '#services/run.js';

export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench admin password' };
/** Chromium started directly (not the /usr/bin wrapper), so a device holds one PID. */
export const CHROMIUM = '/usr/lib/chromium/chromium';

/** The bench defaults for a server on `dataDir`; `env` adds to or overrides them. */
export function benchServerEnv(dataDir: string, env: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    // Request logging would write a line per request to the benchmark's own console.
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    PLATFORM_DOMAIN: 'example.com',
    BOOTSTRAP_ADMIN_EMAIL: BENCH_ADMIN.email,
    BOOTSTRAP_ADMIN_PASSWORD: BENCH_ADMIN.password,
    // Load comes from one address and one user: the limits would measure themselves.
    RATE_LIMIT_PER_ADDRESS: '0',
    RATE_LIMIT_PER_USER: '0',
    RATE_LIMIT_NEW_SESSIONS: '0',
    ...env,
  };
}

/**
 * The file the servers a bench run starts in its processes write their log lines to (`BENCH_SERVER_LOG`,
 * which the run sets and names at its start), so that they do not fall between its progress lines;
 * standard output when it is not set.
 */
let serverLog: DestinationStream | undefined;
function serverLogDestination(): DestinationStream | undefined {
  const path = process.env.BENCH_SERVER_LOG;
  if (!path) return undefined;
  serverLog ??= pino.destination({ dest: path, append: true, mkdir: true, sync: false });
  return serverLog;
}

/** Starts the platform in this process on `dataDir`; `env` adds to or overrides the bench defaults. */
export function startBenchServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningProcess> {
  return startProcess(benchServerEnv(dataDir, env), undefined, serverLogDestination());
}

/** Signs the bench administrator in; returns the access token. */
export async function signIn(url: string): Promise<string> {
  const r = await fetch(`${url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) });
  if (r.status !== 200) throw new Error(`sign-in answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** Writes an agent config with one desktop Chromium device (800×600) into `dataDir`; returns its path. */
export function chromiumAgentConfig(dataDir: string): string {
  const path = join(dataDir, 'agent.json');
  writeFileSync(path, JSON.stringify({ nodeName: 'bench-node', chromiumPath: CHROMIUM, devices: [{ provider: 'browser', name: 'Bench Chromium', profile: 'desktop', width: 800, height: 600 }] }));
  return path;
}
