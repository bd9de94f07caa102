/*
 * `npm run soak -- [--minutes 30] [--postgres]`: the platform under steady mixed load for a long time,
 * recording its resident memory and event-loop delay. The server runs as a child process (as
 * `npm start` runs it: embedded, or on the local PostgreSQL with `--postgres`), with its in-process
 * device host (two browser devices on Chromium). The load: readers (device list, users/me, audit),
 * writers (/v1 projects and test cases), a device session with two viewers on its live screen, and a
 * tap every few seconds (`--pace-ms` between a reader's requests, 20 by default). Memory is read from /proc; event-loop delay from the server's own
 * `/health?detail=true` (p99 over each interval), with its JavaScript heap and external memory. Prints a line per sample and writes
 * bench/results/soak-<mode>.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createTestDatabase } from '#test/helpers/postgres.js';

const arg = (name: string) => process.argv.includes(`--${name}`);
const numberArg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = numberArg('minutes', 30);
const SAMPLE_MS = numberArg('sample-seconds', 30) * 1000;
const REST_MS = numberArg('rest-seconds', 60) * 1000;
const postgres = arg('postgres');
/** Pause of each reader between requests: a steady load, not a saturating one. */
const PACE_MS = numberArg('pace-ms', 20);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADMIN = { email: 'soak-admin@example.com', password: 'soak admin password' };

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-soak-'));
  const database = postgres ? await createTestDatabase('qa_soak') : null;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      PLATFORM_DOMAIN: 'example.com',
      BOOTSTRAP_ADMIN_EMAIL: ADMIN.email,
      BOOTSTRAP_ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_PER_USER: '0',
      RATE_LIMIT_NEW_SESSIONS: '0',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening"/.exec(buffer);
      if (m) resolve(m[1]!);
      if (buffer.length > 1_000_000) buffer = buffer.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  child.stdout!.resume();
  const samples: { minute: number; rssMb: number; heapUsedMb: number | null; externalMb: number | null; loopP99Ms: number | null; requests: number; errors: number; frames: number }[] = [];
  const counters = { requests: 0, errors: 0, frames: 0 };
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    counters.requests++;
    if (res.status >= 500) counters.errors++;
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  };
  /** The server's own figures since the last ask: event-loop delay p99, and its JavaScript heap and external memory (PGlite's WebAssembly memory is counted there). */
  const figures = async (): Promise<{ loopP99Ms: number | null; heapUsedMb: number | null; externalMb: number | null }> => {
    const r = await call('GET', '/health?detail=true');
    const b = typeof r.body === 'object' ? r.body : null;
    return {
      loopP99Ms: b?.eventLoop?.p99Ms !== undefined ? Number(b.eventLoop.p99Ms) : null,
      heapUsedMb: b?.memory?.heapUsedBytes !== undefined ? mb(Number(b.memory.heapUsedBytes)) : null,
      externalMb: b?.memory?.externalBytes !== undefined ? mb(Number(b.memory.externalBytes)) : null,
    };
  };
  try {
    const token = (await call('POST', '/api/v1/auth/login', undefined, { username: ADMIN.email, password: ADMIN.password })).body.token as string;
    // Memory at rest: started, signed in, devices announced, nothing else going on.
    for (let i = 0; i < 100 && ((await call('GET', '/df/api/devices', token)).body.totalElements ?? 0) < 2; i++) await new Promise((r) => setTimeout(r, 300));
    await new Promise((r) => setTimeout(r, REST_MS));
    const atRest = rssOf(child.pid!);
    process.stdout.write(`${postgres ? 'PostgreSQL' : 'embedded'}: resident memory at rest ${mb(atRest)} MB\n`);

    const key = (await call('POST', '/api/v1/api-keys', token, { name: 'soak', scopes: ['read', 'write'] })).body;
    const v1 = (method: string, path: string, body?: unknown) =>
      fetch(`${url}/v1${path}`, { method, headers: { 'x-api-key': key.key, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) }).then(async (r) => {
        counters.requests++;
        if (r.status >= 500) counters.errors++;
        return r.json().catch(() => null) as Promise<any>;
      });
    const project = await v1('POST', '/projects', { name: `Soak ${Date.now()}`, key: `SK${Date.now() % 100000}` });
    const devices = (await call('GET', '/df/api/devices', token)).body.content as { id: string }[];
    const session = (await call('POST', '/df/api/sessions', token, { deviceId: devices[0]!.id, name: 'soak' })).body;
    const viewers = [0, 1].map(() => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/df/ws/sessions/${session.id}?access_token=${token}`);
      ws.on('message', (_d, binary) => binary && counters.frames++);
      ws.on('error', () => undefined);
      return ws;
    });
    const until = Date.now() + MINUTES * 60_000;
    let stop = false;
    const loops = [
      async () => {
        while (!stop) {
          await call('GET', '/df/api/devices?size=20', token);
          await pause(PACE_MS);
        }
      },
      async () => {
        while (!stop) {
          await call('GET', '/api/v1/users/me', token);
          await call('GET', '/api/v1/audit/events?size=20', token);
          await pause(PACE_MS);
        }
      },
      async () => {
        let n = 0;
        while (!stop) {
          await v1('POST', `/projects/${project?.id}/test-cases`, { title: `Case ${n++}` });
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async () => {
        while (!stop) {
          await call('POST', `/df/api/sessions/${session.id}/device/control`, token, { action: 'tap', x: 100, y: 100 });
          await new Promise((r) => setTimeout(r, 3_000));
        }
      },
    ];
    const running = loops.map((l) => l().catch((err: unknown) => process.stderr.write(`load loop stopped: ${(err as Error).message}\n`)));
    await figures();
    const started = Date.now();
    while (Date.now() < until) {
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
      const sample = { minute: Math.round((Date.now() - started) / 6_000) / 10, rssMb: mb(rssOf(child.pid!)), ...(await figures()), ...counters };
      samples.push(sample);
      process.stdout.write(`${JSON.stringify(sample)}\n`);
    }
    stop = true;
    await Promise.all(running);
    for (const v of viewers) v.close();
    await call('DELETE', `/df/api/sessions/${session.id}`, token);
    await new Promise((r) => setTimeout(r, REST_MS));
    const after = rssOf(child.pid!);
    const loops99 = samples.map((s) => s.loopP99Ms).filter((n): n is number => n !== null);
    const summary = {
      mode: postgres ? 'PostgreSQL' : 'embedded',
      minutes: MINUTES,
      rssAtRestMb: mb(atRest),
      rssPeakMb: Math.max(...samples.map((s) => s.rssMb)),
      rssAfterLoadAtRestMb: mb(after),
      eventLoopP99MsWorst: loops99.length ? Math.max(...loops99) : null,
      eventLoopP99MsMedian: loops99.length ? loops99.sort((x, y) => x - y)[Math.floor(loops99.length / 2)] : null,
      requests: counters.requests,
      serverErrors: counters.errors,
      frames: counters.frames,
      samples,
    };
    mkdirSync('bench/results', { recursive: true });
    writeFileSync(`bench/results/soak-${postgres ? 'postgres' : 'embedded'}.json`, JSON.stringify(summary, null, 2));
    process.stdout.write(`${JSON.stringify({ ...summary, samples: undefined })}\n`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

await main();
