/*
 * Device-testing reports over 100,000 sessions: the sessions, device-usage and reservations reports
 * (and the dashboard) through the real HTTP server, answered from the df-reports read model. Sessions
 * are seeded as the events the write side records (DeviceSessionRequested, then Ended or Failed),
 * spread over 90 days, 200 devices, 20 users and 10 builds; each report is then asked for the whole
 * range, one request at a time, and its latency recorded.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deviceUsageFromSessions, deviceUsageReport, type ReportQuery } from '#projections/df-reports/index.js';
import { eventMetadata } from '#shared/es/index.js';
import type { RunningProcess } from '#services/run.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { num, phase, table } from './console.js';
import { signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';

export type ReportBackend = 'PGlite' | 'PostgreSQL';

export interface ReportBenchOptions {
  backend: ReportBackend;
  sessions: number;
  devices: number;
  days: number;
  /** Requests per report (sequential). */
  requests: number;
}

export interface ReportRun {
  report: string;
  path: string;
  rows: number;
  latencyMs: Distribution;
}

export interface ReportBenchReport {
  backend: ReportBackend;
  sessions: number;
  seedSeconds: number;
  runs: ReportRun[];
}

const SEED_BATCH = 1_000;
const DAY = 86_400_000;

/** A deterministic pseudo-random sequence (the same history every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

async function seed(server: RunningProcess, scope: { companyId: number; workspaceId: number; userId: number }, o: ReportBenchOptions, end: Date): Promise<number> {
  const { store, readModels } = server.platform;
  const rnd = random(42);
  const devices = Array.from({ length: o.devices }, () => randomUUID());
  const start = new Date(end.getTime() - o.days * DAY);
  const meta = (at: Date) => eventMetadata({ actorId: scope.userId, companyId: scope.companyId, workspaceId: scope.workspaceId, now: at });
  // Each device online since the start of the range.
  await store.append(
    `device-seed-${randomUUID()}`,
    devices.map((deviceId, i) => ({
      type: 'DeviceConnected',
      payload: {
        deviceId,
        facts: { name: `Bench device ${String(i).padStart(3, '0')}`, platform: 'android', osVersion: '14', model: 'Pixel 7', manufacturer: 'Google', type: 'phone', isRealDevice: false, provider: 'simulated', screen: { width: 1080, height: 2400, scale: 1 } },
        placement: { hostId: 'bench-host', nodeName: 'bench-node', hubId: 'local', companyId: scope.companyId, workspaceIds: null },
        status: 'available',
      },
      metadata: meta(start),
    })),
    'no_stream',
  );
  let done = 0;
  const ticker = phase(`seeding ${num(o.sessions)} sessions over ${o.days} days on ${o.devices} devices (${num(SEED_BATCH)} per append)`, () => done / o.sessions);
  const t0 = performance.now();
  while (done < o.sessions) {
    const n = Math.min(SEED_BATCH, o.sessions - done);
    const events = [];
    for (let i = 0; i < n; i++) {
      const sessionId = randomUUID();
      const deviceIndex = Math.floor(rnd() * o.devices);
      const startedAt = new Date(start.getTime() + Math.floor(rnd() * (o.days * DAY - 2 * 3_600_000)));
      const endedAt = new Date(startedAt.getTime() + 60_000 + Math.floor(rnd() * 59 * 60_000));
      const failed = rnd() < 0.05;
      events.push({
        type: 'DeviceSessionRequested',
        payload: {
          sessionId, deviceId: devices[deviceIndex]!, hostId: 'bench-host', deviceName: `Bench device ${String(deviceIndex).padStart(3, '0')}`, name: 'bench session',
          type: rnd() < 0.7 ? 'manual' : 'automation', buildName: `build-${Math.floor(rnd() * 10)}`, metadata: {}, ownerId: 1 + Math.floor(rnd() * 20),
          companyId: scope.companyId, workspaceId: scope.workspaceId,
        },
        metadata: meta(startedAt),
      });
      events.push(failed
        ? { type: 'DeviceSessionFailed', payload: { sessionId, code: 'PREPARE_FAILED', reason: 'bench' }, metadata: meta(endedAt) }
        : { type: 'DeviceSessionEnded', payload: { sessionId, reason: 'user' }, metadata: meta(endedAt) });
    }
    await store.append(`device-session-seed-${randomUUID()}`, events, 'no_stream');
    done += n;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await readModels.waitFor(await store.headPosition(), { names: ['df-reports'], timeoutMs: 1_800_000 });
  const seconds = (performance.now() - t0) / 1000;
  ticker.done(`${num(o.sessions)} sessions in the reports after ${num(seconds, 1)} s`);
  return seconds;
}

export async function measureReports(o: ReportBenchOptions): Promise<ReportBenchReport> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-reports-'));
  const database = o.backend === 'PostgreSQL' ? await createTestDatabase('qa_bench_reports') : null;
  let server: RunningProcess | undefined;
  try {
    const starting = phase(`starting the server (${o.backend})`);
    server = await startBenchServer(dataDir, { AGENT_ENABLED: 'false', ...(database ? { DATABASE_URL: database.url } : {}) });
    starting.done(server.url);
    const token = await signIn(server.url);
    const headers = { authorization: `Bearer ${token}` };
    const ws = (await (await fetch(`${server.url}/api/v1/workspaces/accessible`, { headers })).json()) as { id: number }[];
    const me = (await (await fetch(`${server.url}/api/v1/users/me`, { headers })).json()) as { id: number; companyId: number };
    const scope = { companyId: me.companyId, workspaceId: ws[0]!.id, userId: me.id };
    const end = new Date();
    const seedSeconds = await seed(server, scope, o, end);
    const range = `from=${new Date(end.getTime() - o.days * DAY).toISOString()}&to=${end.toISOString()}`;
    const paths = [
      { report: 'sessions, by day', path: `/df/api/reports/sessions?${range}` },
      { report: 'sessions, by week and build', path: `/df/api/reports/sessions?${range}&groupBy=week&by=build` },
      { report: 'sessions, by day, CSV', path: `/df/api/reports/sessions?${range}&format=csv` },
      { report: 'device usage, by day', path: `/df/api/reports/device-usage?${range}` },
      { report: 'device usage, by week', path: `/df/api/reports/device-usage?${range}&groupBy=week` },
      { report: 'reservations, by day', path: `/df/api/reports/reservations?${range}` },
      { report: 'most-used devices', path: `/df/api/dashboard/most-used-devices?${range}` },
      { report: 'dashboard stats', path: `/df/api/dashboard/stats` },
    ];
    const runs: ReportRun[] = [];
    // The device-usage query alone (no HTTP), in the server's process on its database: today's query
    // over every session (the baseline, with the server's JIT setting, then with JIT off) and the read
    // model's.
    const db = server.platform.db;
    const q: ReportQuery = { companyId: scope.companyId, workspaceId: scope.workspaceId, from: new Date(end.getTime() - o.days * DAY), to: end, now: end, timeZone: 'UTC', groupBy: 'day' };
    const direct = [
      { report: 'device usage, by day: SQL, from the sessions (baseline)', load: () => deviceUsageFromSessions(db, q) },
      { report: 'device usage, by day: SQL, from the sessions, JIT off', load: () => db.transaction(async (tx) => {
        await tx.query(`SET LOCAL jit = off`);
        return deviceUsageFromSessions(tx, q);
      }) },
      { report: 'device usage, by day: SQL, read model', load: () => deviceUsageReport(db, q) },
    ];
    // Each report 2 times to warm the caches, then `o.requests` times measured; `call` answers its row count.
    const measure = async (report: string, path: string, what: string, call: () => Promise<number>) => {
      const ticker = phase(`measure  ${report.padEnd(30)} ${o.requests} ${what}`);
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < o.requests + 2; i++) {
        const t = performance.now();
        rows = await call();
        if (i >= 2) times.push(performance.now() - t);
      }
      const latencyMs = distribution(times);
      ticker.done(`${num(rows)} rows, p50 ${num(latencyMs.p50, 1)} ms, max ${num(latencyMs.max, 1)} ms`);
      runs.push({ report, path, rows, latencyMs });
    };
    for (const d of direct) await measure(d.report, '(in process)', 'calls', async () => (await d.load()).length);
    const base = server.url;
    for (const p of paths) {
      await measure(p.report, p.path, 'requests', async () => {
        const r = await fetch(`${base}${p.path}`, { headers: { ...headers, 'x-workspace-id': String(scope.workspaceId) } });
        const text = await r.text();
        if (r.status !== 200) throw new Error(`GET ${p.path} answered ${r.status}: ${text.slice(0, 300)}`);
        return text.startsWith('{') ? ((JSON.parse(text) as { rows?: unknown[] }).rows?.length ?? 1) : text.startsWith('[') ? (JSON.parse(text) as unknown[]).length : text.trimEnd().split('\r\n').length - 1;
      });
    }
    return { backend: o.backend, sessions: o.sessions, seedSeconds, runs };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

export function formatReports(reports: readonly ReportBenchReport[]): string {
  const rows = reports.flatMap((r) => r.runs.map((run) => [r.backend, run.report, num(run.rows), num(run.latencyMs.p50, 1), num(run.latencyMs.p99, 1), num(run.latencyMs.max, 1)]));
  return `Device-testing reports over ${num(reports[0]?.sessions ?? 0)} sessions (whole range, one request at a time)\n${table(['backend', 'report', 'rows', 'p50 ms', 'p99 ms', 'max ms'], rows)}\n`;
}
