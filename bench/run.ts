/*
 * `npm run bench`: the performance figures of docs/performance.md, "Targets" that this repository can measure
 * today, in one run — gateway overhead, event appends, projection lag, rebuild rate, and the device
 * farm's live screen (frames) and device list. Prints progress and a table, and writes every figure
 * to bench/results/latest.json.
 *
 * `npm run bench -- --only=http,metrics,appends,group-commit,v1-writes,lag,rebuild,frames,android,device-list,devtools,debug-tunnel,webdriver,webdriver-first,ios-screen,test-cases,results,uploads,df-reports,console,test-runs,startup,audit-chain,access-review,health-reads,video` runs a subset. Lag and rebuild use the
 * PostgreSQL database the appends step filled; run without it, the rebuild step first tops the log
 * up (unmeasured) to its minimum.
 *
 * `--only=health-reads` measures what reading Android devices' health costs (bench/health-reads.ts): 50
 * adbd test devices by default, `--devices=N` for another number.
 *
 * `--only=video` measures what recording a session's video costs the device host (bench/video-cpu.ts):
 * one and four sessions with screens changing at 30 frames/s, not recorded and recorded at 720p, per
 * recorded session against the goal of under 15 % of one core.
 *
 * `--only=metrics-instructions` counts what metrics and tracing cost the gateway in instructions a request
 * (bench/metrics-instructions.ts), each configuration's server under valgrind's callgrind; no part of a run
 * without `--only` (about twenty minutes, and valgrind must be installed).
 *
 * `--only=drill` runs the failover drill (bench/failover-drill.ts; figures in docs/operations.md), which
 * is no part of a run without `--only`: it measures recovery, not speed, and takes the machine for
 * about ten minutes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { heading, note, num, phase, table } from './console.js';
import { formatCpu, measureCpu, type CpuShare } from './cpu.js';
import { formatAndroid, measureAndroid, type AndroidReport } from './android.js';
import { measureDeviceList, measureFrames, type DeviceListReport, type FramesReport } from './device-farm.js';
import { formatDevtools, measureDevtools, type DevtoolsReport } from './devtools.js';
import { formatDebugTunnel, measureDebugTunnel, type TunnelReport } from './debug-tunnel.js';
import { formatWebdriver, measureWebdriver, type WebdriverReport } from './webdriver.js';
import { formatWebdriverFirst, measureWebdriverFirst, type WebdriverFirstReport } from './webdriver-first.js';
import { formatIosScreen, measureIosScreen, type IosScreenReport } from './ios-screen.js';
import { measureHttpOverhead, type HttpComparison, type HttpOverheadReport } from './http-overhead.js';
import { formatMetricsCost, measureMetricsCost, type MetricsCostReport } from './metrics-cost.js';
import { formatMetricsInstructions, measureMetricsInstructions, METRICS_INSTRUCTIONS_DEFAULTS, type MetricsInstructionsReport } from './metrics-instructions.js';
import { measureProjectionLag, type LagReport } from './projection-lag.js';
import { measureRebuild, type RebuildReport } from './rebuild.js';
import { openPgliteStore, openPostgresStore, type BenchStore } from './stores.js';
import { formatReports, measureReports, type ReportBenchReport } from './df-reports.js';
import { formatResults, formatTestCaseList, formatV1Writes, measureResults, measureTestCaseList, measureV1Writes, type ResultsReport, type TestCaseListReport, type V1WritesReport } from './tmt.js';
import { formatUploads, measureUploads, type UploadsReport } from './uploads.js';
import { formatTestRuns, measureTestRuns, type TestRunsReport } from './test-runs.js';
import { formatWebConsole, measureWebConsole, type WebConsoleReport } from './web-console.js';
import { DRILL_DEFAULTS, formatDrill, runFailoverDrill, type DrillReport } from './failover-drill.js';
import { runWriters, type WriterResult } from './writers.js';
import { formatGroupCommit, measureGroupCommit, type GroupCommitRun } from './group-commit.js';
import { formatStartup, measureStartup, type StartupReport } from './startup.js';
import { formatAuditChain, measureAuditChain, type AuditChainReport } from './audit-chain.js';
import { formatAccessReview, measureAccessReview, type AccessReviewBenchReport } from './access-review.js';
import { formatHealthReads, measureHealthReads, writeHealthReads, type HealthReadsReport } from './health-reads.js';
import { formatVideoCpu, measureVideoCpu, type VideoCpuReport } from './video-cpu.js';

const SETTINGS = {
  http: { connections: [50, 1], durationSeconds: 10, warmupSeconds: 3, pairs: 3 },
  metrics: { connections: 50, durationSeconds: 4, warmupSeconds: 10, rounds: 8, processesPerConfig: 2 },
  appends: { durationMs: 5_000, writers: [1, 16], batchedEventsPerAppend: 10 },
  groupCommit: { writers: 16, durationMs: 5_000, rounds: 2, settleMs: 10_000 },
  auditChain: { backends: ['PGlite', 'PostgreSQL'] as const, writers: 16, companies: 8, durationMs: 5_000, rounds: 2 },
  accessReview: { backends: ['PGlite', 'PostgreSQL'] as const, events: 100_000, users: 1_000, roles: 30, teams: 100, workspaces: 20, days: 100, batch: 50, runs: 6 },
  v1Writes: { runs: [{ backend: 'PostgreSQL', groupCommit: false }, { backend: 'PostgreSQL', groupCommit: true }, { backend: 'PGlite', groupCommit: false }, { backend: 'PGlite', groupCommit: true }], connections: 100, durationSeconds: 10, warmupSeconds: 3 },
  // The target rate first; then a light load, to tell the runner's reaction time from its throughput.
  lag: { writers: 16, durationMs: 10_000, targetEventsPerSecond: [10_000, 500], settleMs: 10_000 },
  rebuild: { minimumEvents: 50_000 },
  frames: { durationSeconds: 8, warmupSeconds: 2, width: 800, height: 600 },
  android: { width: 720, height: 1280, viewers: [1, 10], durationSeconds: 5, warmupSeconds: 2, taps: 200 },
  // The agents' defaults: a heartbeat every 2 s, hosts lost after 15 s of silence.
  deviceList: { backends: ['PGlite', 'PostgreSQL'], devices: 10_000, agents: 100, heartbeatMs: 2_000, hostTimeoutSeconds: 15, sessions: 20, connections: [10, 1], durationSeconds: 8, warmupSeconds: 2 },
  testCases: { backends: ['PGlite', 'PostgreSQL'], cases: 100_000, seedWriters: 4, connections: [10, 1], durationSeconds: 5, warmupSeconds: 2 },
  results: { backends: ['PGlite', 'PostgreSQL'], batchSize: 1_000, requests: 40, clients: [1, 4], casesPerSession: 1_000, sessions: 4 },
  uploads: { bytes: 256 * 1024 * 1024, partSize: 16 * 1024 * 1024, parallelParts: 4, runs: 3 },
  dfReports: { backends: ['PGlite', 'PostgreSQL'], sessions: 100_000, devices: 200, days: 90, requests: 20 },
  console: { devices: 1_000, agents: 10, gridLoads: 5, frameSeconds: 8, opens: 5 },
  debugTunnel: { bytes: 256 * 1024 * 1024, runs: 3, roundTrips: 2_000, warmup: 200 },
  // An iPhone 16's screen, full size both ways.
  iosScreen: { durationSeconds: 8, width: 1179, height: 2556, quality: 60 },
  webdriverFirst: { rounds: 3, sessions: 3 },
  // 300 passing tests over 10 adbd devices, durations 50 ms – 1.5 s (log-normal, median 380 ms, seeded);
  // batchSize null: the platform's default (20 tests per am instrument), not sent.
  // `npm start` on an empty data directory, three restarts with nothing changed, one after a console change.
  startup: { restarts: 3, idleSeconds: 10, restSettleSeconds: 60, restSeconds: 30 },
  // One agent over 50 adbd devices, reading every 5 s (a minute holds 12 readings of each), scaled to the default 60 s.
  healthReads: { devices: 50, intervalMs: 5_000, warmupSeconds: 10, durationSeconds: 60 },
  // One and four sessions side by side, a 1280×720 screen changing on every frame at 30 frames/s, not recorded
  // then recorded: at 720p (maxSize 1280) for the goal, and at the host's default size (720 px long side).
  video: { sessions: [1, 4], screen: { width: 1280, height: 720 }, fps: 30, preset: 'ultrafast', sizes: [{ label: '720p', maxSize: 1280 }, { label: 'default (720 px long side)', maxSize: 720 }], warmupSeconds: 3, durationSeconds: 20 },
  testRuns: { devices: 10, tests: 300, classes: 15, durations: { seed: 20_261_129, medianMs: 380, sigma: 0.75, minMs: 50, maxMs: 1_500 }, batchSize: null, pollMs: 50, testTimeoutSeconds: 10 },
} as const;

/** docs/performance.md, "Targets", as numbers. */
const TARGETS = {
  latencyAddedMax: 0.25,
  throughputKeptMin: 0.7,
  appendsPerSecond: 10_000,
  /** Appends with the history's chain against without it. */
  auditChainSlowerPercentMax: 10,
  /** An access review as of a date over 100,000 events. */
  accessReviewMs: 1_000,
  lagP99Ms: 100,
  lagAtEventsPerSecond: 10_000,
  v1WritesPerSecondPostgres: 1_500,
  v1WritesP99MsPostgres: 200,
  v1WritesPerSecondEmbedded: 600,
  rebuildPerSecond: 50_000,
  deviceListP99Ms: 20,
  cdpAddedP50Ms: 1,
  webdriverAddedP50Ms: 2,
  tunnelThroughputKeptMin: 0.5,
  webdriverFirstSessionMs: 1_500,
  testRunWallOverIdealMax: 1.15,
  testRunOverheadPerTestMs: 50,
  /** Host CPU of a recorded session at 720p/30 fps beyond the same session not recorded, % of one core. */
  videoPercentPerSessionMax: 15,
} as const;

/** A load counts as "at" the target rate when it reached this share of it (timer granularity). */
const RATE_TOLERANCE = 0.98;

type Step = 'http' | 'metrics' | 'appends' | 'group-commit' | 'v1-writes' | 'lag' | 'rebuild' | 'frames' | 'android' | 'device-list' | 'devtools' | 'debug-tunnel' | 'ios-screen' | 'test-cases' | 'results' | 'webdriver' | 'webdriver-first' | 'uploads' | 'df-reports' | 'console' | 'test-runs' | 'startup' | 'audit-chain' | 'access-review' | 'health-reads' | 'video' | 'metrics-instructions' | 'drill';
const STEPS: readonly Step[] = ['http', 'metrics', 'appends', 'group-commit', 'v1-writes', 'lag', 'rebuild', 'frames', 'android', 'device-list', 'devtools', 'debug-tunnel', 'ios-screen', 'test-cases', 'results', 'webdriver', 'webdriver-first', 'uploads', 'df-reports', 'console', 'test-runs', 'startup', 'audit-chain', 'access-review', 'health-reads', 'video', 'metrics-instructions', 'drill'];
/** Steps run only when named in `--only`: the instruction counts under valgrind, the failover drill. */
const ONLY_WHEN_NAMED: readonly Step[] = ['metrics-instructions', 'drill'];

interface AppendReport extends WriterResult {
  store: BenchStore['name'];
  batched: boolean;
  cpu: CpuShare | null;
}

function selectedSteps(argv: readonly string[]): Set<Step> {
  const only = argv.find((a) => a.startsWith('--only='));
  if (!only) return new Set(STEPS.filter((s) => !ONLY_WHEN_NAMED.includes(s)));
  const names = only.slice('--only='.length).split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) if (!(STEPS as readonly string[]).includes(n)) throw new Error(`unknown step ${n}; steps: ${STEPS.join(', ')}`);
  return new Set(names as Step[]);
}

/** Product files whose cost the figures mostly reflect; their hashes tie a result to the code measured. */
const MEASURED_FILES = [
  'services/gateway/access-control.ts',
  'projections/org-directory/queries/sign-in.ts',
  'projections/org-directory/queries/views.ts',
  'shared/db/pglite.ts',
  'shared/db/postgres.ts',
  'shared/es/postgres-event-store.ts',
  'shared/es/sql-append.ts',
  'shared/es/sql-reads.ts',
  'projections/runner.ts',
  'projections/loop.ts',
  'projections/checkpoints.ts',
  'projections/df-devices/queries.ts',
  'services/df/core/screen-hub.ts',
  'services/df/core/screen-recording.ts',
  'services/df/live/viewer-socket.ts',
  'agent/browser/device.ts',
  'agent/browser/input.ts',
  'agent/browser/inspect.ts',
  'services/df/test-runs/plan.ts',
  'services/df/test-runs/service.ts',
  'services/df/test-runs/shard.ts',
  'agent/android/instrument.ts',
  'agent/android/health.ts',
  'agent/worker.ts',
  'agent/video/encoder.ts',
  'agent/video/settings.ts',
];

function codeState(): { commit: string | null; uncommittedFiles: number | null; sha256: Record<string, string> } {
  const sha256 = Object.fromEntries(
    MEASURED_FILES.map((f) => [f, createHash('sha256').update(readFileSync(new URL(`../${f}`, import.meta.url))).digest('hex').slice(0, 16)]),
  );
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' });
    return { commit, uncommittedFiles: status.split('\n').filter(Boolean).length, sha256 };
  } catch {
    return { commit: null, uncommittedFiles: null, sha256 };
  }
}

/** The 1-minute load average at each step's start: above the core count, other work shared the machine. */
const loadAtStep: Record<string, number> = {};
function step(name: string, title: string): void {
  const load = Number(os.loadavg()[0]!.toFixed(2));
  loadAtStep[name] = load;
  heading(`${title}  [load average ${load}]`);
}

const pct = (share: number, digits = 0) => `${num(share * 100, digits)}%`;
const signedPct = (share: number) => `${share >= 0 ? '+' : ''}${num(share * 100)}%`;
const ms = (value: number) => num(value, 2);

async function appendsStep(stores: BenchStore[]): Promise<AppendReport[]> {
  const reports: AppendReport[] = [];
  const { durationMs, writers, batchedEventsPerAppend } = SETTINGS.appends;
  for (const target of stores) {
    const runs = [
      ...writers.map((w) => ({ writers: w, eventsPerAppend: 1 })),
      { writers: writers[writers.length - 1]!, eventsPerAppend: batchedEventsPerAppend },
    ];
    for (const r of runs) {
      const ticker = phase(`${target.name.padEnd(10)} ${String(r.writers).padStart(2)} writer(s), ${r.eventsPerAppend} event(s)/append, ${durationMs / 1000} s`);
      const cpu = measureCpu(target.database ? { database: target.database } : {});
      const result = await runWriters(target.store, { ...r, durationMs, streamCategory: 'bench-append' });
      const cpuShare = cpu.stop();
      ticker.done(`${num(result.eventsPerSecond)} events/s; CPU ${formatCpu(cpuShare)}`);
      reports.push({ ...result, store: target.name, batched: r.eventsPerAppend > 1, cpu: cpuShare });
    }
  }
  return reports;
}

/** Group commit's and the /v1 writes' figures against their targets (the best round or run of each kind). */
function writeVerdicts(runs: GroupCommitRun[], writes: V1WritesReport[]): Verdict[] {
  const list: Verdict[] = [];
  for (const [store, on] of [['PostgreSQL', true], ['PostgreSQL', false], ['PGlite', true], ['PGlite', false]] as const) {
    const mine = runs.filter((r) => r.store === store && r.groupCommit === on);
    if (mine.length === 0) continue;
    const best = mine.reduce((a, b) => (b.load.eventsPerSecond > a.load.eventsPerSecond ? b : a));
    const lagP99 = Math.max(...mine.map((r) => r.lag.p99));
    list.push({
      figure: `appends, ${store}, 16 writers × 1 event, group commit ${on ? 'on' : 'off'} (best of ${mine.length}; lag p99 worst of ${mine.length})`,
      measured: `${num(best.load.eventsPerSecond)} events/s, lag p99 ${ms(lagP99)} ms`,
      target: store === 'PostgreSQL' ? `≥ ${num(TARGETS.appendsPerSecond)} events/s, lag p99 < ${TARGETS.lagP99Ms} ms` : 'reported',
      met: store === 'PostgreSQL' ? best.load.eventsPerSecond >= TARGETS.appendsPerSecond && lagP99 < TARGETS.lagP99Ms : null,
    });
  }
  for (const w of writes) {
    const postgres = w.backend === 'PostgreSQL';
    list.push({
      figure: `POST /v1/test-cases, ${w.backend}, ${w.connections} connections, group commit ${w.groupCommit ? 'on' : 'off'}`,
      measured: `${num(w.requestsPerSecond)} req/s, p99 ${ms(w.latency.p99)} ms, ${num(w.non2xx + w.errors + w.timeouts)} failed`,
      target: postgres ? `≥ ${num(TARGETS.v1WritesPerSecondPostgres)} req/s, p99 < ${TARGETS.v1WritesP99MsPostgres} ms` : `≥ ${num(TARGETS.v1WritesPerSecondEmbedded)} req/s`,
      met: w.non2xx + w.errors + w.timeouts > 0 ? false : postgres
        ? w.requestsPerSecond >= TARGETS.v1WritesPerSecondPostgres && w.latency.p99 < TARGETS.v1WritesP99MsPostgres
        : w.requestsPerSecond >= TARGETS.v1WritesPerSecondEmbedded,
    });
  }
  return list;
}

/** Each test run's wall time against the ideal and the platform's overhead per test, against their goals. */
function testRunVerdicts(r: TestRunsReport | null): Verdict[] {
  return (r?.runs ?? []).flatMap((run, i) => [
    { figure: `test run ${i + 1} (${run.basis}), ${r!.tests} tests on ${r!.devices} devices: wall ÷ ideal`, measured: num(run.ratio, 3), target: `≤ ${TARGETS.testRunWallOverIdealMax}`, met: run.ratio <= TARGETS.testRunWallOverIdealMax },
    { figure: `test run ${i + 1} (${run.basis}): platform overhead per test`, measured: `${num(run.overheadPerTestMs, 1)} ms`, target: `< ${TARGETS.testRunOverheadPerTestMs} ms`, met: run.overheadPerTestMs < TARGETS.testRunOverheadPerTestMs },
  ]);
}

/** The agent's health reads for 50 devices at the default interval, against their goal. */
function healthReadsVerdicts(r: HealthReadsReport | null): Verdict[] {
  if (!r) return [];
  return [{ figure: `agent's health reads, 50 devices at the default ${r.defaultIntervalMs / 1000} s interval (measured with ${r.devices})`, measured: `${num(r.atDefault.agentReadsPercentFor50, 3)} % of a core`, target: `< ${r.goalPercentOfCore} % of a core`, met: r.atDefault.goalMet }];
}

/** A recorded session's host CPU at 720p beyond the same session not recorded, for one and four sessions; other sizes reported. */
function videoVerdicts(r: VideoCpuReport | null): Verdict[] {
  const judged = SETTINGS.video.sizes[0].label;
  return (r?.perRecordedSession ?? []).map((p) => ({
    figure: `session video, ${p.size}, 30 fps, ${p.sessions} session(s) side by side: host CPU per recorded session beyond not recorded`,
    measured: `${num(p.percentOfCore, 1)} % of a core`,
    target: p.size === judged ? `< ${TARGETS.videoPercentPerSessionMax} % of a core` : 'none (reported)',
    met: p.size === judged ? p.percentOfCore < TARGETS.videoPercentPerSessionMax : null,
  }));
}

interface Verdict {
  figure: string;
  measured: string;
  target: string;
  /** null: reported without a target. */
  met: boolean | null;
}

function verdicts(
  http: HttpOverheadReport | null,
  appends: AppendReport[],
  lags: LagReport[],
  rebuilds: RebuildReport[],
  frames: FramesReport | null,
  devices: DeviceListReport[],
  relays: { devtools: DevtoolsReport | null; webdriver: WebdriverReport | null; webdriverFirst: WebdriverFirstReport | null; debugTunnel: TunnelReport | null },
): Verdict[] {
  const out: Verdict[] = [];
  if (relays.debugTunnel) {
    const kept = Math.min(relays.debugTunnel.upload.ratio, relays.debugTunnel.download.ratio);
    out.push({ figure: 'Debug tunnel throughput kept (the lesser of upload and download)', measured: `${num(kept * 100, 0)} %`, target: `≥ ${TARGETS.tunnelThroughputKeptMin * 100} %`, met: kept >= TARGETS.tunnelThroughputKeptMin });
  }
  if (relays.devtools) {
    const added = relays.devtools.gateway.p50 - relays.devtools.direct.p50;
    out.push({ figure: 'CDP round trip through /df/devtools, added at p50', measured: `${num(added, 3)} ms`, target: `< ${TARGETS.cdpAddedP50Ms} ms`, met: added < TARGETS.cdpAddedP50Ms });
  }
  if (relays.webdriver) {
    const added = relays.webdriver.addedP50Ms;
    out.push({ figure: 'WebDriver command through /df/wd, added at p50', measured: `${num(added, 3)} ms`, target: `< ${TARGETS.webdriverAddedP50Ms} ms`, met: added < TARGETS.webdriverAddedP50Ms });
  }
  if (relays.webdriverFirst) {
    const first = relays.webdriverFirst.warm.first.p50;
    out.push({ figure: 'first WebDriver session of a run, new session → first command, p50', measured: `${num(first, 0)} ms`, target: `≤ ${num(TARGETS.webdriverFirstSessionMs, 0)} ms`, met: first <= TARGETS.webdriverFirstSessionMs });
  }
  // The headline connection count's pairs: each goal is met only when it holds in every pair.
  const headline = http ? http.comparisons.filter((c) => c.connections === http.comparisons[0]!.connections) : [];
  if (headline.length > 0) {
    const c = `${headline[0]!.connections} conn, each of ${headline.length} alternating pairs`;
    const each = (f: (p: HttpComparison) => number, show: (v: number) => string) => headline.map((p) => show(f(p))).join(' / ');
    const worst = (f: (p: HttpComparison) => number) => Math.max(...headline.map(f));
    out.push({ figure: `gateway latency added, p50 (${c})`, measured: each((p) => p.p50Added, signedPct), target: `≤ +${pct(TARGETS.latencyAddedMax)}`, met: worst((p) => p.p50Added) <= TARGETS.latencyAddedMax });
    out.push({ figure: `gateway latency added, p99 (${c})`, measured: each((p) => p.p99Added, signedPct), target: `≤ +${pct(TARGETS.latencyAddedMax)}`, met: worst((p) => p.p99Added) <= TARGETS.latencyAddedMax });
    out.push({ figure: `gateway throughput kept (${c})`, measured: each((p) => p.throughputKept, (v) => pct(v)), target: `≥ ${pct(TARGETS.throughputKeptMin)}`, met: Math.min(...headline.map((p) => p.throughputKept)) >= TARGETS.throughputKeptMin });
  }
  const pgSingle = appends.filter((a) => a.store === 'PostgreSQL' && !a.batched);
  if (pgSingle.length > 0) {
    const best = pgSingle.reduce((a, b) => (b.eventsPerSecond > a.eventsPerSecond ? b : a));
    out.push({
      figure: `appends, PostgreSQL, single-event (${best.writers} writers)`,
      measured: `${num(best.eventsPerSecond)} events/s`,
      target: `≥ ${num(TARGETS.appendsPerSecond)} events/s`,
      met: best.eventsPerSecond >= TARGETS.appendsPerSecond,
    });
  }
  const lag = lags.find((l) => l.targetEventsPerSecond >= TARGETS.lagAtEventsPerSecond);
  if (lag) {
    const atRate = lag.load.eventsPerSecond >= TARGETS.lagAtEventsPerSecond * RATE_TOLERANCE;
    out.push({
      figure: `projection lag p99, PostgreSQL (at ${num(lag.load.eventsPerSecond)} events/s${lag.notApplied ? `, ${num(lag.notApplied)} not applied after the wait` : ''})`,
      measured: `${ms(lag.lag.p99)} ms`,
      target: `< ${TARGETS.lagP99Ms} ms at ${num(TARGETS.lagAtEventsPerSecond)} events/s`,
      met: lag.lag.p99 < TARGETS.lagP99Ms && atRate && lag.notApplied === 0,
    });
  }
  for (const r of rebuilds) {
    out.push({
      figure: `rebuild, ${r.store} (${num(r.events)} events)`,
      measured: `${num(r.eventsPerSecond)} events/s`,
      target: `≥ ${num(TARGETS.rebuildPerSecond)} events/s`,
      met: r.eventsPerSecond >= TARGETS.rebuildPerSecond,
    });
  }
  if (frames) {
    out.push({ figure: `screen frames to a viewer (${frames.viewport}, animated page)`, measured: `${num(frames.framesPerSecond, 1)} frames/s`, target: 'none (reported)', met: null });
    out.push({ figure: 'frame latency, capture → viewer, p50 / p99', measured: `${ms(frames.latency.p50)} / ${ms(frames.latency.p99)} ms`, target: 'none (reported)', met: null });
    out.push({ figure: 'frame latency, bus → viewer, p50 / p99', measured: `${ms(frames.busToViewer.p50)} / ${ms(frames.busToViewer.p99)} ms`, target: 'none (reported)', met: null });
  }
  for (const d of devices) {
    for (const r of d.runs) {
      // The target is the latency of a request with every filter: one connection, so the figure is the
      // request's own time. With more connections than cores requests wait for each other on the
      // server (latency ≈ connections ÷ throughput); those runs and the unfiltered page are reported.
      const judged = r.query === 'every filter' && r.connections === 1;
      out.push({
        figure: `device list p99, ${d.backend}, ${num(d.devices)} devices, ${r.query} (${r.connections} conn)`,
        measured: `${ms(r.latency.p99)} ms`,
        target: judged ? `< ${TARGETS.deviceListP99Ms} ms` : 'none (reported)',
        // No answer at all is no figure, not a fast one (an empty distribution's p99 is null).
        met: judged ? r.ok > 0 && r.latency.p99 !== null && r.latency.p99 < TARGETS.deviceListP99Ms : null,
      });
    }
    const h = d.heartbeatLoad;
    out.push({
      figure: `device flaps offline, ${d.backend}, ${d.agents} agents at ${num(d.heartbeatMs / 1000, 1)} s heartbeats (${num(h.heartbeats)} beats in ${num(h.seconds, 1)} s of runs)`,
      measured: `${num(h.devicesTakenOfflineDuringRegistration)} during registration, ${num(h.devicesTakenOffline)} during the runs, ${num(h.offlineAtEnd)} offline at the end`,
      target: '0',
      met: h.devicesTakenOfflineDuringRegistration === 0 && h.devicesTakenOffline === 0 && h.offlineAtEnd === 0,
    });
  }
  return out;
}

function report(http: HttpOverheadReport | null, appends: AppendReport[], lags: LagReport[], rebuilds: RebuildReport[], frames: FramesReport | null, devices: DeviceListReport[], list: Verdict[]): string {
  const parts: string[] = [
    'CPU, cores: average cores in use during the measurement — bench = this process (servers, writers, runner), load = the\n' +
      'autocannon child, pg = PostgreSQL server processes and the backends of the bench database, other = everything else.\n',
  ];
  if (http) {
    const s = SETTINGS.http;
    parts.push(
      `Gateway overhead — GET ${http.route}; autocannon in a child process, ${s.durationSeconds} s per run after a ${s.warmupSeconds} s warm-up of each\n` +
        table(
          ['connections', 'pair', 'route', 'req/s', 'p50 ms', 'p99 ms', 'throughput kept', 'p50 added', 'p99 added', 'CPU, cores'],
          http.comparisons.flatMap((c) => [
            [String(c.connections), String(c.pair), 'plain Fastify', num(c.baseline.requestsPerSecond), ms(c.baseline.latency.p50), ms(c.baseline.latency.p99), '', '', '', formatCpu(c.baseline.cpu)],
            [String(c.connections), String(c.pair), 'gateway', num(c.gateway.requestsPerSecond), ms(c.gateway.latency.p50), ms(c.gateway.latency.p99), pct(c.throughputKept, 1), signedPct(c.p50Added), signedPct(c.p99Added), formatCpu(c.gateway.cpu)],
          ]),
        ),
    );
  }
  if (appends.length > 0) {
    parts.push(
      `Event appends — ${SETTINGS.appends.durationMs / 1000} s per run, each writer on streams of its own with exact expected revisions\n` +
        table(
          ['store', 'writers', 'events/append', 'events/s', 'appends/s', 'append p50 ms', 'append p99 ms', 'CPU, cores'],
          appends.map((a) => [
            a.store,
            String(a.writers),
            a.batched ? `${a.eventsPerAppend} (batched)` : '1',
            num(a.eventsPerSecond),
            num(a.appends / a.seconds),
            ms(a.appendLatency.p50),
            ms(a.appendLatency.p99),
            formatCpu(a.cpu),
          ]),
        ),
    );
  }
  if (lags.length > 0) {
    const s = SETTINGS.lag;
    parts.push(
      `Projection lag — PostgreSQL, ${s.writers} writers for ${s.durationMs / 1000} s; lag = append resolved → runner transaction that applied the event committed\n` +
        table(
          ['store', 'events/s aimed', 'events/s achieved', 'events', 'lag p50 ms', 'lag p99 ms', 'lag max ms', 'not applied after wait', 'rows written', 'CPU, cores'],
          lags.map((lag) => [
            lag.store,
            num(lag.targetEventsPerSecond),
            num(lag.load.eventsPerSecond),
            num(lag.load.events),
            ms(lag.lag.p50),
            ms(lag.lag.p99),
            ms(lag.lag.max),
            num(lag.notApplied),
            num(lag.rowsApplied),
            formatCpu(lag.cpu),
          ]),
        ),
    );
  }
  if (rebuilds.length > 0) {
    parts.push(
      'Rebuild — rebuildProjection of the bench projection (reset, then replay in batches of 1,000)\n' +
        table(
          ['store', 'events', 'of which topped up', 'seconds', 'events/s', 'CPU, cores'],
          rebuilds.map((r) => [r.store, num(r.events), num(r.toppedUp), num(r.seconds, 2), num(r.eventsPerSecond), formatCpu(r.cpu)]),
        ),
    );
  }
  if (frames) {
    const f = SETTINGS.frames;
    parts.push(
      `Screen frames — one headless Chromium device (in-process agent), a page redrawn every animation frame, one ws viewer for ${f.durationSeconds} s;\n` +
        'capture → viewer = CDP screencast metadata.timestamp (Chromium\'s frame-swap time, whole ms) → viewer received the JPEG, same machine clock;\n' +
        'bus → viewer = the agent published the frame on the in-process bus → viewer received it (both in this process, monotonic clock)\n' +
        table(
          ['device', 'viewport', 'frames', 'frames/s', 'page frames/s', 'seq gaps', 'KiB/frame', 'capture→viewer p50 ms', 'p99 ms', 'max ms', 'bus→viewer p50 ms', 'p99 ms', 'max ms', 'CPU, cores'],
          [[
            frames.device,
            frames.viewport,
            num(frames.frames),
            num(frames.framesPerSecond, 1),
            frames.pageFramesPerSecond === null ? 'n/a' : num(frames.pageFramesPerSecond, 1),
            num(frames.seqGaps),
            num(frames.meanFrameBytes / 1024, 1),
            ms(frames.latency.p50),
            ms(frames.latency.p99),
            ms(frames.latency.max),
            ms(frames.busToViewer.p50),
            ms(frames.busToViewer.p99),
            ms(frames.busToViewer.max),
            formatCpu(frames.cpu),
          ]],
        ),
    );
  }
  for (const devs of devices) {
    const d = SETTINGS.deviceList;
    const h = devs.heartbeatLoad;
    parts.push(
      `Device list (${devs.backend}) — ${num(devs.devices)} devices registered by ${devs.agents} simulated agents over the bus in ${num(devs.registrationSeconds, 1)} s ` +
        `(${num(devs.devicesPerSecond)} devices/s); heartbeats every ${num(devs.heartbeatMs / 1000, 1)} s, host time-out ${devs.hostTimeoutSeconds} s; ` +
        `during the runs ${num(h.heartbeats)} heartbeats (${num(h.heartbeatsPerSecond, 1)}/s), events ${Object.entries(h.eventsByType).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'}, ` +
        `${num(h.devicesTakenOffline)} devices taken offline; GET /df/api/devices, autocannon in a child process, ${d.durationSeconds} s per run\n` +
        table(
          ['query', 'connections', 'matches', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU, cores'],
          devs.runs.map((r) => [r.query, String(r.connections), num(r.matches), num(r.requestsPerSecond), ms(r.latency.p50), ms(r.latency.p99), ms(r.latency.max), formatCpu(r.cpu)]),
        ),
    );
  }
  parts.push(`Against docs/performance.md, "Targets"\n${table(['figure', 'measured', 'target', 'verdict'], list.map((v) => [v.figure, v.measured, v.target, v.met === null ? 'reported' : v.met ? 'met' : 'NOT MET']))}`);
  return parts.join('\n');
}

const steps = selectedSteps(process.argv.slice(2));
const started = performance.now();
const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
};
heading(`bench: ${[...steps].join(', ')} — ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}`);
// The servers this run starts write their log lines to a file of the run's, not between its progress
// lines; the step's child processes inherit the variable.
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
process.env.BENCH_SERVER_LOG ??= fileURLToPath(new URL(`./results/servers-${new Date().toISOString().replace(/[:.]/g, '-')}.log`, import.meta.url));
note(`the servers' log lines: ${process.env.BENCH_SERVER_LOG}`);
if (machine.loadAverageAtStart[0]! > 0.5) {
  note(`load average ${machine.loadAverageAtStart.join(' / ')} already: something else is using this machine's cores`);
}

let http: HttpOverheadReport | null = null;
let appends: AppendReport[] = [];
const lags: LagReport[] = [];
const rebuilds: RebuildReport[] = [];
let frames: FramesReport | null = null;
const devices: DeviceListReport[] = [];
let devtools: DevtoolsReport | null = null;
let android: AndroidReport | null = null;
let debugTunnel: TunnelReport | null = null;
let webdriver: WebdriverReport | null = null;
let webdriverFirst: WebdriverFirstReport | null = null;
let iosScreen: IosScreenReport | null = null;
let webConsole: WebConsoleReport | null = null;
let drill: DrillReport | null = null;
let healthReads: HealthReadsReport | null = null;
let video: VideoCpuReport | null = null;
const testCaseLists: TestCaseListReport[] = [];
const resultIngestions: ResultsReport[] = [];
let uploads: UploadsReport | null = null;
let metricsCost: MetricsCostReport | null = null;
let metricsInstructions: MetricsInstructionsReport | null = null;
let testRuns: TestRunsReport | null = null;
let startup: StartupReport | null = null;
const dfReports: ReportBenchReport[] = [];
const opened: BenchStore[] = [];
let groupCommit: GroupCommitRun[] = [];
let auditChain: AuditChainReport[] = [];
let accessReview: AccessReviewBenchReport[] = [];
const v1Writes: V1WritesReport[] = [];
let failure: unknown;
try {
  if (steps.has('http')) {
    step('http', '1/6 gateway overhead: plain Fastify route vs GET /df/api/client-config behind the gateway');
    http = await measureHttpOverhead(SETTINGS.http);
  }
  if (steps.has('metrics')) {
    step('metrics', 'metrics cost: the gateway route with metrics off, then served on METRICS_PORT and scraped every second');
    metricsCost = await measureMetricsCost(SETTINGS.metrics);
  }
  if (steps.has('metrics-instructions')) {
    step('metrics-instructions', 'metrics and tracing cost in instructions: the servers of every configuration counted by callgrind');
    metricsInstructions = await measureMetricsInstructions(METRICS_INSTRUCTIONS_DEFAULTS);
  }
  let postgres: BenchStore | undefined;
  let pglite: BenchStore | undefined;
  if (steps.has('appends') || steps.has('lag') || steps.has('rebuild')) {
    postgres = await openPostgresStore();
    opened.push(postgres);
  }
  if (steps.has('appends') || steps.has('rebuild')) {
    pglite = await openPgliteStore();
    opened.push(pglite);
  }
  if (steps.has('appends')) {
    step('appends', '2/6 event appends per second (PGlite, then the PostgreSQL server)');
    appends = await appendsStep([pglite!, postgres!]);
  }
  if (steps.has('group-commit')) {
    step('group-commit', 'event appends with group commit off and on, side by side (PostgreSQL, then PGlite)');
    groupCommit = await measureGroupCommit(SETTINGS.groupCommit);
  }
  if (steps.has('v1-writes')) {
    step('v1-writes', `test management: /v1 single writes, POST /v1/test-cases with ${SETTINGS.v1Writes.connections} connections`);
    for (const r of SETTINGS.v1Writes.runs) v1Writes.push(await measureV1Writes({ ...SETTINGS.v1Writes, ...r }));
  }
  if (steps.has('lag')) {
    step('lag', '3/6 projection lag under load (PostgreSQL)');
    for (const targetEventsPerSecond of SETTINGS.lag.targetEventsPerSecond) {
      lags.push(await measureProjectionLag(postgres!, { ...SETTINGS.lag, targetEventsPerSecond }));
    }
  }
  if (steps.has('rebuild')) {
    step('rebuild', '4/6 projection rebuild rate');
    for (const target of [postgres!, pglite!]) rebuilds.push(await measureRebuild(target, SETTINGS.rebuild.minimumEvents));
  }
  if (steps.has('frames')) {
    step('frames', '5/6 device farm: screen frames from a headless Chromium device to a viewer');
    frames = await measureFrames(SETTINGS.frames);
  }
  if (steps.has('android')) {
    step('android', 'device farm: Android live screen (minicap vs screencap) and touch (minitouch, the UiAutomator2 server, input) with the adbd test device');
    android = await measureAndroid(SETTINGS.android);
    console.log(formatAndroid(android));
  }
  if (steps.has('device-list')) {
    step('device-list', `6/6 device farm: GET /df/api/devices with ${num(SETTINGS.deviceList.devices)} devices`);
    for (const backend of SETTINGS.deviceList.backends) devices.push(await measureDeviceList({ ...SETTINGS.deviceList, backend }));
  }
  if (steps.has('devtools')) {
    step('devtools', 'device farm: CDP round trip through /df/devtools vs straight to Chromium');
    devtools = await measureDevtools({ roundTrips: 3_000, warmup: 200, block: 100 });
  }
  if (steps.has('debug-tunnel')) {
    step('debug-tunnel', 'device farm: bytes through /df/debug-tunnel vs a direct loopback TCP connection');
    debugTunnel = await measureDebugTunnel(SETTINGS.debugTunnel);
  }
  if (steps.has('webdriver')) {
    step('webdriver', 'device farm: WebDriver command through /df/wd vs straight to the agent\'s Appium');
    webdriver = await measureWebdriver({ commands: 2_000, warmup: 200, block: 100 });
  }
  if (steps.has('webdriver-first')) {
    step('webdriver-first', 'device farm: the first WebDriver session of a run, with startAhead and without');
    webdriverFirst = await measureWebdriverFirst(SETTINGS.webdriverFirst);
  }
  if (steps.has('ios-screen')) {
    step('ios-screen', "device farm: an iPhone's live screen, WebDriverAgent's MJPEG against screenshotr (test peers)");
    iosScreen = await measureIosScreen(SETTINGS.iosScreen);
  }
  if (steps.has('test-cases')) {
    step('test-cases', `test management: GET /v1/test-cases with filters over ${num(SETTINGS.testCases.cases)} cases`);
    for (const backend of SETTINGS.testCases.backends) testCaseLists.push(await measureTestCaseList({ ...SETTINGS.testCases, backend }));
  }
  if (steps.has('results')) {
    step('results', `test management: bulk results, POST /v1/test-sessions/{id}/results with arrays of ${num(SETTINGS.results.batchSize)}`);
    for (const backend of SETTINGS.results.backends) resultIngestions.push(await measureResults({ ...SETTINGS.results, backend }));
  }
  if (steps.has('uploads')) {
    step('uploads', 'device farm: file upload throughput (presigned single PUT, multipart) against writing to the local disk');
    uploads = await measureUploads(SETTINGS.uploads);
  }
  if (steps.has('df-reports')) {
    step('df-reports', `device farm: reports and dashboard over ${num(SETTINGS.dfReports.sessions)} sessions`);
    // BENCH_DF_REPORTS_SESSIONS and BENCH_DF_REPORTS_BACKENDS (PGlite,PostgreSQL) seed fewer sessions or use one backend while iterating.
    const sessions = Number(process.env.BENCH_DF_REPORTS_SESSIONS ?? SETTINGS.dfReports.sessions);
    const backends = process.env.BENCH_DF_REPORTS_BACKENDS?.split(',') ?? SETTINGS.dfReports.backends;
    for (const backend of SETTINGS.dfReports.backends.filter((b) => backends.includes(b))) dfReports.push(await measureReports({ ...SETTINGS.dfReports, sessions, backend }));
  }
  if (steps.has('console')) {
    step('console', `web console: initial JavaScript, first painted grid with ${num(SETTINGS.console.devices)} devices, live-screen frame to paint`);
    webConsole = await measureWebConsole(SETTINGS.console);
  }
  if (steps.has('test-runs')) {
    const t = SETTINGS.testRuns;
    step('test-runs', `device farm: a test run of ${t.tests} tests over ${t.devices} adbd test devices, twice (no history, then history), POST /df/api/test-runs → final state`);
    testRuns = await measureTestRuns({ ...t, durations: { ...t.durations } });
  }
  if (steps.has('startup')) {
    step('startup', 'startup: npm start on an empty data directory, restarts with nothing changed, one after a console change; /ready, RSS at rest, and CPU at rest after the last start');
    startup = await measureStartup(SETTINGS.startup);
  }
  if (steps.has('audit-chain')) {
    step('audit-chain', "the history's chain: appends with it and without (16 writers, PGlite then PostgreSQL), then verification of what was written");
    auditChain = await measureAuditChain(SETTINGS.auditChain);
  }
  if (steps.has('access-review')) {
    step('access-review', `access review as of a date over ${num(SETTINGS.accessReview.events)} events of one company (PGlite then PostgreSQL)`);
    accessReview = await measureAccessReview(SETTINGS.accessReview);
  }
  if (steps.has('health-reads')) {
    const given = process.argv.find((a) => a.startsWith('--devices='));
    const devices = given ? Number(given.slice('--devices='.length)) : SETTINGS.healthReads.devices;
    if (!Number.isInteger(devices) || devices < 1) throw new Error(`--devices must be a whole number of 1 or more, not ${given}`);
    step('health-reads', `device health: the shell commands and CPU of reading ${devices} adbd test devices' health, one agent process`);
    // BENCH_HEALTH_CPU_PROF=<folder> writes the reading agent's --cpu-prof there (it slows the agent: figures of such a run are not the cost).
    healthReads = await measureHealthReads({ ...SETTINGS.healthReads, devices, profileDir: process.env.BENCH_HEALTH_CPU_PROF ?? null });
    writeHealthReads(healthReads);
  }
  if (steps.has('video')) {
    step('video', "session videos: the device host's CPU for one and four sessions at 30 frames/s, not recorded and recorded (720p, and the default size)");
    video = await measureVideoCpu(SETTINGS.video);
  }
  if (steps.has('drill')) {
    step('drill', 'failover drill: HAProxy, two of every process, a NATS cluster; a gateway, a df replica, the leased projections runner and a NATS node killed in turn');
    drill = await runFailoverDrill(DRILL_DEFAULTS);
  }
} catch (err) {
  failure = err;
} finally {
  const closing = phase('cleaning up (dropping databases, removing temporary directories)');
  for (const target of opened.reverse()) await target.dispose().catch((err: unknown) => note(`cleanup of ${target.name} failed: ${String(err)}`));
  closing.done('done');
}

const totalSeconds = (performance.now() - started) / 1000;
const list = [...verdicts(http, appends, lags, rebuilds, frames, devices, { devtools, webdriver, webdriverFirst, debugTunnel }), ...writeVerdicts(groupCommit, v1Writes), ...testRunVerdicts(testRuns), ...healthReadsVerdicts(healthReads), ...videoVerdicts(video)];
process.stdout.write(`\n${report(http, appends, lags, rebuilds, frames, devices, list)}`);
if (groupCommit.length > 0) process.stdout.write(`\n${formatGroupCommit(groupCommit)}`);
if (v1Writes.length > 0) process.stdout.write(`\n${formatV1Writes(v1Writes)}`);
if (devtools) process.stdout.write(`\n${formatDevtools(devtools)}`);
if (debugTunnel) process.stdout.write(`\n${formatDebugTunnel(debugTunnel)}`);
if (webdriver) process.stdout.write(`\n${formatWebdriver(webdriver)}`);
if (webdriverFirst) process.stdout.write(`\n${formatWebdriverFirst(webdriverFirst)}`);
if (iosScreen) process.stdout.write(`\n${formatIosScreen(iosScreen)}`);
if (testCaseLists.length > 0) process.stdout.write(`\n${formatTestCaseList(testCaseLists, SETTINGS.testCases.durationSeconds)}`);
if (resultIngestions.length > 0) process.stdout.write(`\n${formatResults(resultIngestions)}`);
if (metricsCost) process.stdout.write(`\n${formatMetricsCost(metricsCost)}`);
if (metricsInstructions) process.stdout.write(`\n${formatMetricsInstructions(metricsInstructions)}`);
if (uploads) process.stdout.write(`\n${formatUploads(uploads)}`);
if (dfReports.length > 0) process.stdout.write(`\n${formatReports(dfReports)}`);
if (webConsole) process.stdout.write(`\n${formatWebConsole(webConsole)}`);
if (testRuns) process.stdout.write(`\n${formatTestRuns(testRuns, { ratioMax: TARGETS.testRunWallOverIdealMax, overheadPerTestMs: TARGETS.testRunOverheadPerTestMs })}`);
if (startup) process.stdout.write(`\n${formatStartup(startup)}`);
if (auditChain.length > 0) process.stdout.write(`\n${formatAuditChain(auditChain, SETTINGS.auditChain, TARGETS.auditChainSlowerPercentMax)}`);
if (accessReview.length > 0) process.stdout.write(`\n${formatAccessReview(accessReview, SETTINGS.accessReview, TARGETS.accessReviewMs)}`);
if (healthReads) process.stdout.write(`\n${formatHealthReads(healthReads)}`);
if (video) process.stdout.write(`\n${formatVideoCpu(video, SETTINGS.video)}`);
if (drill) process.stdout.write(`\n${formatDrill(drill)}`);
// An acknowledged write the drill could not read back fails the run.
if (drill && drill.writes.lost > 0) process.exitCode = 1;
const results = {
  finishedAt: new Date().toISOString(),
  totalSeconds,
  machine: { ...machine, loadAverageAtStep: loadAtStep, loadAverageAtEnd: os.loadavg().map((l) => Number(l.toFixed(2))) },
  code: codeState(),
  settings: SETTINGS,
  targets: TARGETS,
  http,
  metricsCost,
  metricsInstructions,
  appends,
  groupCommit,
  auditChain,
  accessReview,
  v1Writes,
  lags,
  rebuilds,
  frames,
  android,
  deviceList: devices,
  devtools,
  debugTunnel,
  webdriver,
  webdriverFirst,
  iosScreen,
  testCaseLists,
  resultIngestions,
  uploads,
  dfReports,
  webConsole,
  testRuns,
  startup,
  healthReads,
  video,
  drill,
  verdicts: list,
  error: failure ? String(failure instanceof Error ? (failure.stack ?? failure.message) : failure) : null,
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/latest.json', import.meta.url),
  // Positions are bigints, which JSON cannot carry as numbers.
  `${JSON.stringify(results, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`,
);
process.stdout.write(`\nTotal ${num(totalSeconds, 0)} s; load average at end ${results.machine.loadAverageAtEnd.join(' / ')}. Figures in bench/results/latest.json\n`);
if (failure) {
  process.stderr.write(`\nbench failed: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
  process.exitCode = 1;
}
