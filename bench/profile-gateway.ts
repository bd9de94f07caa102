/*
 * `npx tsx bench/profile-gateway.ts`: where a server spends its CPU on GET /df/api/client-config.
 * Starts the embedded server as the benchmark does, loads it from the autocannon child for a few
 * seconds under the V8 profiler, attributes every sample to the nearest package on its stack, and
 * writes the raw profile to bench/results/gateway.cpuprofile (open it in Chrome DevTools).
 *
 * `npx tsx bench/profile-gateway.ts --baseline`: the same route on the bare Fastify the benchmark compares the
 * gateway with (bench/results/baseline.cpuprofile), so the two profiles can be set side by side; both print
 * the server's CPU time per request.
 *
 * `npx tsx bench/profile-gateway.ts --v1-write [--postgres]`: the same for a single `/v1` write,
 * POST /v1/test-cases at 100 connections, on PGlite or a fresh PostgreSQL database; the profile goes to
 * bench/results/v1-write.cpuprofile, and the platform functions with the most self time are listed too.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { table } from './console.js';
import { startBaseline, urlOf } from './http-overhead.js';
import { LoadGenerator } from './load-generator.js';
import { signIn, startBenchServer } from './server.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Buckets, tried from the leaf of each sample's stack towards its root; the first match takes it. */
const BUCKETS: readonly [name: string, test: (url: string, fn: string) => boolean][] = [
  ['PGlite (WASM and its JS)', (url) => url.startsWith('wasm://') || url.includes('@electric-sql/pglite')],
  ['jose (token verification)', (url) => url.includes('/jose/')],
  ['zod / fastify-type-provider-zod', (url) => url.includes('/zod/') || url.includes('fastify-type-provider-zod')],
  ['pino (logging)', (url) => url.includes('/pino')],
  ['fastify, find-my-way, light-my-request', (url) => /\/(fastify|find-my-way|@fastify|avvio|light-my-request)\//.test(url)],
  ['platform code (services/, shared/, projections/)', (url) => /\/work\/[^/]+\/(services|shared|projections)\//.test(url) || /^file:.*\/(services|shared|projections)\//.test(url)],
  ['Node.js http / net / streams', (url) => /^node:(_http|http|net|internal\/(streams|http|stream_base))/.test(url)],
  ['garbage collector', (_url, fn) => fn === '(garbage collector)'],
  ['idle', (_url, fn) => fn === '(idle)'],
];

function attribute(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    let bucket = 'other';
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      const hit = BUCKETS.find(([, test]) => test(frame.url, frame.functionName));
      if (hit) {
        bucket = hit[0];
        break;
      }
    }
    totals.set(bucket, (totals.get(bucket) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Platform functions (services/, shared/, projections/) by self time, the largest first. */
function hottestPlatformFunctions(profile: Profile, count: number): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (!/\/(services|shared|projections)\//.test(frame.url)) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(services|shared|projections)\//, '$1/')}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count);
}

const v1Write = process.argv.includes('--v1-write');
const bare = !v1Write && process.argv.includes('--baseline');
const database = v1Write && process.argv.includes('--postgres') ? await createTestDatabase('qa_bench_profile') : null;
const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-profile-'));
const server = await startBenchServer(dataDir, database ? { DATABASE_URL: database.url } : {});
const baseline = bare ? await startBaseline() : null;
const load = new LoadGenerator();
const session = new Session();
try {
  const token = await signIn(server.url);
  const headers = { authorization: `Bearer ${token}`, 'x-workspace-id': '1' };
  let request: Parameters<LoadGenerator['run']>[0] extends infer R ? Omit<R, 'durationSeconds'> : never;
  if (v1Write) {
    const ws = await fetch(`${server.url}/api/v1/workspaces/accessible`, { headers });
    const workspace = String(((await ws.json()) as { id: number }[])[0]!.id);
    const json = { ...headers, 'x-workspace-id': workspace, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v1/projects`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Profile', key: 'PROF' }) });
    const projectId = ((await created.json()) as { data: { id: string } }).data.id;
    const body = JSON.stringify({ title: 'Checkout with a saved card', projectId, priority: 'high', steps: [{ action: 'pay', expected: 'paid' }] });
    request = { url: `${server.url}/v1/test-cases`, method: 'POST', headers: json, body, connections: 100 };
  } else {
    const base = baseline ? urlOf(baseline) : server.url;
    request = { url: `${base}/df/api/client-config`, headers: { ...headers, origin: 'https://app.example.com' }, connections: 50 };
  }
  await load.run({ ...request, durationSeconds: 2 });
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await load.run({ ...request, durationSeconds: 5 });
  const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/${v1Write ? 'v1-write' : bare ? 'baseline' : 'gateway'}.cpuprofile`, import.meta.url), JSON.stringify(profile));
  const buckets = attribute(profile);
  const total = buckets.reduce((s, [, t]) => s + t, 0);
  const busyUs = buckets.filter(([name]) => name !== 'idle').reduce((s, [, t]) => s + t, 0);
  const requests = result.requestsPerSecond * 5;
  process.stdout.write(`${Math.round(result.requestsPerSecond)} req/s while profiled, ${(busyUs / requests).toFixed(1)} µs of the server's CPU per request; share of the server's samples:\n`);
  process.stdout.write(table(['where', 'share'], buckets.map(([name, t]) => [name, `${((t / total) * 100).toFixed(1)}%`])));
  process.stdout.write(`\nPlatform functions by self time:\n`);
  process.stdout.write(table(['function', 'share'], hottestPlatformFunctions(profile, 15).map(([name, t]) => [name, `${((t / total) * 100).toFixed(1)}%`])));
} finally {
  session.disconnect();
  await load.close();
  await baseline?.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
}
