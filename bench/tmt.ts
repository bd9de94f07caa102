/*
 * Test management figures: `GET /v1/test-cases` with filters over 100,000 cases through the real HTTP
 * server (autocannon in a child process), and bulk result ingestion through
 * `POST /v1/test-sessions/{id}/results` with arrays of 1,000.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventMetadata } from '#shared/es/index.js';
import type { RunningProcess } from '#services/run.js';
import { PRIORITIES, CASE_STATUSES, type TestCaseEvent } from '#events/tmt/test-cases.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { note, num, phase, table } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { LoadGenerator } from './load-generator.js';
import type { LoadResult } from './load-worker.js';
import { signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';


export type TmtBackend = 'PGlite' | 'PostgreSQL';

interface Started {
  server: RunningProcess;
  token: string;
  workspaceId: number;
  companyId: number;
  /** The PostgreSQL database's name, for the CPU share of its backends; absent for PGlite. */
  database?: string;
  dispose(): Promise<void>;
}

/** The embedded server on PGlite, or the same server on a fresh PostgreSQL database. */
async function startServer(backend: TmtBackend, env: Record<string, string> = {}): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-tmt-'));
  const database = backend === 'PostgreSQL' ? await createTestDatabase('qa_bench_tmt') : null;
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  const starting = phase(`starting the server (${backend === 'PGlite' ? 'embedded: PGlite in a temporary DATA_DIR' : 'PostgreSQL, a fresh database'})`);
  let server: RunningProcess;
  try {
    server = await startBenchServer(dataDir, { ...(database ? { DATABASE_URL: database.url } : {}), ...env });
  } catch (err) {
    await cleanup();
    throw err;
  }
  starting.done(server.url);
  try {
    const token = await signIn(server.url);
    const ws = await fetch(`${server.url}/api/v1/workspaces/accessible`, { headers: { authorization: `Bearer ${token}` } });
    const workspaceId = ((await ws.json()) as { id: number }[])[0]!.id;
    const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
    const companyId = ((await me.json()) as { companyId: number }).companyId;
    return {
      server,
      token,
      workspaceId,
      companyId,
      ...(database ? { database: new URL(database.url).pathname.slice(1) } : {}),
      async dispose() {
        await server.stop();
        await cleanup();
      },
    };
  } catch (err) {
    await server.stop();
    await cleanup();
    throw err;
  }
}

async function api<T = any>(s: Started, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const r = await fetch(`${s.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.token}`, 'x-workspace-id': String(s.workspaceId), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}

async function createProject(s: Started, key: string): Promise<string> {
  const r = await api<{ data: { id: string } }>(s, 'POST', '/v1/projects', { name: `Bench ${key}`, key });
  if (r.status !== 201) throw new Error(`POST /v1/projects answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

/** Cases per seeding append. */
const SEED_BATCH = 1_000;

/**
 * Seeds cases (unmeasured): the same `TestCaseCreated` events the write side records, appended 1,000
 * at a time to seed streams (`tmt-test-case-seed-<uuid>`) by `writers` concurrent writers, then waits
 * for the read model. One append per case would spend the seeding on 100,000 transactions; the rows
 * the list reads are the same. These cases list, filter and join sessions like any other; only their
 * own commands (PUT, DELETE) would not find them, and the bench sends none.
 */
async function seedCases(s: Started, projects: readonly string[], count: number, writers: number, label: string): Promise<{ ids: string[]; seconds: number }> {
  const { store, readModels } = s.server.platform;
  const { companyId } = s;
  const ids: string[] = Array.from({ length: count }, () => randomUUID());
  let next = 0;
  let done = 0;
  const ticker = phase(label, () => done / count);
  const t0 = performance.now();
  const metadata = eventMetadata({ actorId: 1, companyId, workspaceId: s.workspaceId, now: new Date() });
  const event = (i: number) => {
    const payload: Extract<TestCaseEvent, { type: 'TestCaseCreated' }>['payload'] = {
      testCaseId: ids[i]!,
      companyId,
      workspaceId: s.workspaceId,
      projectId: projects[i % projects.length]!,
      title: `${i % 10 === 0 ? 'Checkout' : 'Search'} case ${i}`,
      description: '',
      priority: PRIORITIES[(i >> 1) % PRIORITIES.length]!,
      status: CASE_STATUSES[(i >> 3) % CASE_STATUSES.length]!,
      steps: [{ action: 'open the page', expected: 'it loads' }],
    };
    return { type: 'TestCaseCreated', payload, metadata };
  };
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (;;) {
        const from = next;
        if (from >= count) return;
        next = Math.min(count, from + SEED_BATCH);
        const batch = Array.from({ length: next - from }, (_, k) => event(from + k));
        await store.append(`tmt-test-case-seed-${randomUUID()}`, batch, 'no_stream');
        done += batch.length;
        // PGlite answers through microtasks only; let the progress timer run between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }),
  );
  await readModels.waitFor(await store.headPosition(), { names: ['tmt-test-cases'], timeoutMs: 900_000 });
  const seconds = (performance.now() - t0) / 1000;
  ticker.done(`${num(count)} cases listed after ${num(seconds, 1)} s (${num(count / seconds)} cases/s)`);
  return { ids, seconds };
}

export interface TestCaseListOptions {
  backend: TmtBackend;
  cases: number;
  seedWriters: number;
  connections: readonly number[];
  durationSeconds: number;
  warmupSeconds: number;
}

export interface TestCaseListRun extends LoadResult {
  query: string;
  path: string;
  connections: number;
  /** pagination.total the query answers. */
  matches: number;
  cpu: CpuShare | null;
}

export interface TestCaseListReport {
  backend: TmtBackend;
  cases: number;
  seedSeconds: number;
  runs: TestCaseListRun[];
}

export async function measureTestCaseList(options: TestCaseListOptions): Promise<TestCaseListReport> {
  const load = new LoadGenerator();
  let started: Started | undefined;
  try {
    started = await startServer(options.backend);
    const s = started;
    const projects = [await createProject(s, 'BENCHA'), await createProject(s, 'BENCHB')];
    const seeded = await seedCases(s, projects, options.cases, options.seedWriters, `seeding ${num(options.cases)} test cases in 2 projects (${options.seedWriters} writers, ${num(SEED_BATCH)} events per append)`);
    const p = projects[0]!;
    const queries = [
      { query: 'workspace, first page', path: '/v1/test-cases?limit=20' },
      { query: 'project', path: `/v1/test-cases?projectId=${p}&limit=20` },
      { query: 'project + priority', path: `/v1/test-cases?projectId=${p}&priority=high&limit=20` },
      { query: 'project + priority + status', path: `/v1/test-cases?projectId=${p}&priority=critical&status=ready&limit=20` },
      { query: 'project + priority, page 100', path: `/v1/test-cases?projectId=${p}&priority=high&page=100&limit=100` },
      { query: 'project + title search', path: `/v1/test-cases?projectId=${p}&search=checkout&limit=20` },
    ];
    const headers = { authorization: `Bearer ${s.token}`, 'x-workspace-id': String(s.workspaceId) };
    const matches = new Map<string, number>();
    for (const q of queries) {
      const r = await api<{ pagination: { total: number } }>(s, 'GET', q.path);
      if (r.status !== 200) throw new Error(`GET ${q.path} answered ${r.status}: ${JSON.stringify(r.body)}`);
      matches.set(q.query, r.body.pagination.total);
      note(`${q.query}: ${num(r.body.pagination.total)} of ${num(options.cases)} match`);
    }
    const runs: TestCaseListRun[] = [];
    for (const q of queries) {
      const warm = phase(`warm-up  ${q.query.padEnd(30)} ${options.connections[0]} conn, ${options.warmupSeconds} s`);
      await load.run({ url: `${s.server.url}${q.path}`, headers, connections: options.connections[0]!, durationSeconds: options.warmupSeconds });
      warm.done('');
      for (const connections of options.connections) {
        const ticker = phase(`measure  ${q.query.padEnd(30)} ${connections} conn, ${options.durationSeconds} s`);
        const cpu = measureCpu({ extraPids: load.pid ? [load.pid] : [], ...(s.database ? { database: s.database } : {}) });
        const result = await load.run({ url: `${s.server.url}${q.path}`, headers, connections, durationSeconds: options.durationSeconds });
        const cpuShare = cpu.stop();
        const bad = result.non2xx + result.errors + result.timeouts;
        ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${bad ? `, ${bad} failed` : ''}; CPU ${formatCpu(cpuShare)}`);
        if (bad > 0) throw new Error(`${q.query}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
        runs.push({ ...result, query: q.query, path: q.path, connections, matches: matches.get(q.query) ?? 0, cpu: cpuShare });
      }
    }
    return { backend: options.backend, cases: options.cases, seedSeconds: seeded.seconds, runs };
  } finally {
    await load.close();
    await started?.dispose();
  }
}

export interface ResultsOptions {
  backend: TmtBackend;
  /** Results per request. */
  batchSize: number;
  /** Requests per run. */
  requests: number;
  /** Concurrent clients of each run. */
  clients: readonly number[];
  /** Cases of each session (every batch covers them all). */
  casesPerSession: number;
  sessions: number;
}

export interface ResultsRun {
  clients: number;
  requests: number;
  results: number;
  seconds: number;
  resultsPerSecond: number;
  latency: Distribution;
  cpu: CpuShare | null;
}

export interface ResultsReport {
  backend: TmtBackend;
  batchSize: number;
  sessions: number;
  runs: ResultsRun[];
}

export async function measureResults(options: ResultsOptions): Promise<ResultsReport> {
  let started: Started | undefined;
  try {
    started = await startServer(options.backend);
    const s = started;
    const project = await createProject(s, 'RESULTS');
    const { ids } = await seedCases(s, [project], options.casesPerSession, 1, `seeding ${num(options.casesPerSession)} test cases`);
    const sessions: string[] = [];
    for (let i = 0; i < options.sessions; i++) {
      const r = await api<{ data: { id: string } }>(s, 'POST', '/v1/test-sessions', { name: `Bench ${i}`, projectId: project, testCases: ids });
      if (r.status !== 201) throw new Error(`POST /v1/test-sessions answered ${r.status}: ${JSON.stringify(r.body)}`);
      sessions.push(r.body.data.id);
    }
    const statuses = ['passed', 'failed', 'blocked', 'skipped', 'retest'] as const;
    const body = (n: number) =>
      JSON.stringify(
        Array.from({ length: options.batchSize }, (_, i) => ({
          testCaseId: ids[(n * options.batchSize + i) % ids.length],
          status: statuses[(n + i) % statuses.length],
          notes: i % 10 === 0 ? 'assertion failed: expected 200, got 500' : undefined,
          durationMs: 100 + ((n * 7 + i) % 900),
        })),
      );
    const headers = { authorization: `Bearer ${s.token}`, 'x-workspace-id': String(s.workspaceId), 'content-type': 'application/json' };
    const post = async (n: number) => {
      const t = performance.now();
      const r = await fetch(`${s.server.url}/v1/test-sessions/${sessions[n % sessions.length]}/results`, { method: 'POST', headers, body: body(n) });
      const text = await r.text();
      if (r.status !== 201) throw new Error(`POST .../results answered ${r.status}: ${text}`);
      return performance.now() - t;
    };
    // Warm-up: one request per session.
    for (let i = 0; i < sessions.length; i++) await post(i);
    const runs: ResultsRun[] = [];
    let n = sessions.length;
    for (const clients of options.clients) {
      let sent = 0;
      const ticker = phase(`${options.requests} × ${num(options.batchSize)} results, ${clients} client(s), ${sessions.length} sessions`, () => sent / options.requests);
      const cpu = measureCpu(s.database ? { database: s.database } : {});
      const latencies: number[] = [];
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (sent < options.requests) {
            sent++;
            latencies.push(await post(n++));
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      const cpuShare = cpu.stop();
      const results = latencies.length * options.batchSize;
      const run: ResultsRun = { clients, requests: latencies.length, results, seconds, resultsPerSecond: results / seconds, latency: distribution(latencies), cpu: cpuShare };
      ticker.done(`${num(run.resultsPerSecond)} results/s; request p50 ${num(run.latency.p50, 1)} ms, p99 ${num(run.latency.p99, 1)} ms; CPU ${formatCpu(cpuShare)}`);
      runs.push(run);
    }
    return { backend: options.backend, batchSize: options.batchSize, sessions: sessions.length, runs };
  } finally {
    await started?.dispose();
  }
}

/** The test-case list table, in the style of `bench/run.ts`. */
export function formatTestCaseList(reports: readonly TestCaseListReport[], durationSeconds: number): string {
  return reports
    .map(
      (r) =>
        `Test case list (${r.backend}) — ${num(r.cases)} cases in 2 projects (seeded in ${num(r.seedSeconds, 1)} s, unmeasured); GET /v1/test-cases, ` +
        `autocannon in a child process, ${durationSeconds} s per run\n` +
        table(
          ['query', 'connections', 'matches', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU, cores'],
          r.runs.map((x) => [x.query, String(x.connections), num(x.matches), num(x.requestsPerSecond), num(x.latency.p50, 2), num(x.latency.p99, 2), num(x.latency.max, 2), formatCpu(x.cpu)]),
        ),
    )
    .join('\n');
}

/** The bulk ingestion table, in the style of `bench/run.ts`. */
export function formatResults(reports: readonly ResultsReport[]): string {
  return reports
    .map(
      (r) =>
        `Result ingestion (${r.backend}) — POST /v1/test-sessions/{id}/results with arrays of ${num(r.batchSize)}, spread over ${r.sessions} sessions; ` +
        'one request = validation, one event appended, the read model updated before the answer\n' +
        table(
          ['clients', 'requests', 'results', 'seconds', 'results/s', 'request p50 ms', 'p99 ms', 'max ms', 'CPU, cores'],
          r.runs.map((x) => [String(x.clients), num(x.requests), num(x.results), num(x.seconds, 2), num(x.resultsPerSecond), num(x.latency.p50, 1), num(x.latency.p99, 1), num(x.latency.max, 1), formatCpu(x.cpu)]),
        ),
    )
    .join('\n');
}

export interface V1WritesOptions {
  backend: TmtBackend;
  groupCommit: boolean;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface V1WritesReport extends LoadResult {
  backend: TmtBackend;
  groupCommit: boolean;
  connections: number;
  cpu: CpuShare | null;
}

/**
 * `POST /v1/test-cases` under load: every request creates a case (one append) and waits, as the route
 * does, for the case's read model to have applied it before answering.
 */
export async function measureV1Writes(options: V1WritesOptions): Promise<V1WritesReport> {
  const load = new LoadGenerator();
  let started: Started | undefined;
  try {
    started = await startServer(options.backend, { EVENT_STORE_GROUP_COMMIT: String(options.groupCommit) });
    const s = started;
    const project = await createProject(s, 'BENCHW');
    const request = {
      url: `${s.server.url}/v1/test-cases`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${s.token}`, 'x-workspace-id': String(s.workspaceId), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Checkout with a saved card', projectId: project, priority: 'high', steps: [{ action: 'pay', expected: 'paid' }] }),
      connections: options.connections,
    };
    const label = `${options.backend}, group commit ${options.groupCommit ? 'on' : 'off'}`;
    const warm = phase(`warm-up  POST /v1/test-cases (${label}) ${options.connections} conn, ${options.warmupSeconds} s`);
    await load.run({ ...request, durationSeconds: options.warmupSeconds });
    warm.done('');
    const ticker = phase(`measure  POST /v1/test-cases (${label}) ${options.connections} conn, ${options.durationSeconds} s`);
    const cpu = measureCpu({ extraPids: load.pid ? [load.pid] : [], ...(s.database ? { database: s.database } : {}) });
    const result = await load.run({ ...request, durationSeconds: options.durationSeconds });
    const cpuShare = cpu.stop();
    const bad = result.non2xx + result.errors + result.timeouts;
    ticker.done(`${num(result.requestsPerSecond)} req/s, p50 ${num(result.latency.p50, 2)} ms, p99 ${num(result.latency.p99, 2)} ms${bad ? `, ${bad} failed` : ''}; CPU ${formatCpu(cpuShare)}`);
    // Reported, not thrown: a write that fails under load (503 when the read model falls behind) is a figure.
    return { ...result, backend: options.backend, groupCommit: options.groupCommit, connections: options.connections, cpu: cpuShare };
  } finally {
    await load.close();
    await started?.dispose();
  }
}

export function formatV1Writes(reports: V1WritesReport[]): string {
  return (
    `/v1 single writes — POST /v1/test-cases (one case per request, answered once its read model has it), autocannon in a child process\n` +
    table(
      ['backend', 'group commit', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'failed', 'CPU, cores'],
      reports.map((r) => [r.backend, r.groupCommit ? 'on' : 'off', String(r.connections), num(r.requestsPerSecond), num(r.latency.p50, 2), num(r.latency.p99, 2), num(r.latency.max, 2), num(r.non2xx + r.errors + r.timeouts), formatCpu(r.cpu)]),
    )
  );
}
