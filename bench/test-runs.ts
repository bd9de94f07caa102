/*
 * `--only=test-runs`: an instrumentation suite sharded over the fleet through `POST /df/api/test-runs`,
 * timed from the request to the run's final state. Ten adbd test devices behind Debian's adb, the
 * started server's in-process agent on them, a test APK whose DEX (assembled here with Debian's smali)
 * holds a few hundred `@Test` methods, and each device playing the same scripted suite: every test
 * passes after a duration drawn from a seeded skewed distribution. The run goes twice on a fresh
 * server: first without history (round-robin), then planned on the first run's durations.
 *
 * Where the time goes is read from the devices' side: each peer's shell commands are timestamped as they
 * arrive (the installs, each `am instrument` launch), and a launch's tests run back to back for their
 * scripted durations, so the gap between a launch's end and the next launch is the platform's.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testRunStream, type TestRunEvent } from '#events/df/test-runs.js';
import { fold } from '#shared/es/index.js';
import { testRunDecider, type TestRunRecord } from '#services/df/test-runs/index.js';
import type { ScriptedSuite } from '#test/adbd/instrument.js';
import { seeded } from '#test/fuzz/openapi-fuzz.js';
import type { AdbdPeer } from '#test/adbd/peer.js';
import { startAdbServer, startPeer, type AdbServer } from '#test/helpers/adb.js';
import { catalogued } from '#test/helpers/catalog.js';
import { haveDexTools, SMALI, testManifest } from '#test/helpers/test-apk.js';
import { zipOf } from '#test/helpers/zip.js';
import { note, num, phase, table } from './console.js';
import { api, startServer, until, type Started } from './device-farm.js';

const run = promisify(execFile);

export interface TestRunsOptions {
  devices: number;
  tests: number;
  /** Test classes the tests are spread over. */
  classes: number;
  /** The durations: log-normal around `medianMs` with `sigma`, clipped to [minMs, maxMs], from `seed`. */
  durations: { seed: number; medianMs: number; sigma: number; minMs: number; maxMs: number };
  /** Tests per `am instrument` launch; null: the platform's default (not sent). */
  batchSize: number | null;
  /** How often the bench reads the run's state while it waits for the end. */
  pollMs: number;
  /** The run's per-test time-out (the tests take at most durations.maxMs). */
  testTimeoutSeconds: number;
}

/** One device's part of a run, seen from the device. */
export interface DeviceTimeline {
  deviceId: string;
  tests: number;
  /** The sum of the scripted durations of the tests it ran, ms. */
  testMs: number;
  /** The plan's expected work for it, ms. */
  plannedMs: number;
  /** POST → the first install command reached the device, ms. */
  firstInstallAt: number | null;
  /** POST → the first `am instrument` reached the device (session, installs, first launch), ms. */
  firstLaunchAt: number;
  launches: number;
  /** Between a launch's tests' end and the next launch reaching the device, ms, summed. */
  launchGapsMs: number;
  /** POST → its last launch's tests ended, ms. */
  lastTestEndAt: number;
}

export interface TestRunFigures {
  basis: string;
  state: string;
  batchSize: number;
  /** POST → the bench saw the final state, ms. */
  wallMs: number;
  /** The run's own queuedAt → endedAt, ms. */
  platformMs: number;
  /** The sum of the tests' scripted durations, ms. */
  sumMs: number;
  /** The sum of the durations the platform recorded for the attempts, ms. */
  recordedSumMs: number;
  idealMs: number;
  ratio: number;
  overheadPerTestMs: number;
  /** max/min of the shards' planned work (what the planner believed). */
  plannedSpread: number;
  /** max/min of the shards' scripted work (what they really had to run). */
  workSpread: number;
  passed: number;
  attempts: number;
  devices: DeviceTimeline[];
  /** The device whose tests ended last, and how its wall time splits. */
  critical: { deviceId: string; setupMs: number; testMs: number; launchGapsMs: number; launches: number; tailMs: number };
}

export interface TestRunsReport {
  devices: number;
  tests: number;
  batchSize: number;
  durations: { sumMs: number; minMs: number; medianMs: number; maxMs: number };
  runs: TestRunFigures[];
}

const PKG = 'com.example.bench';
const RUNNER = 'androidx.test.runner.AndroidJUnitRunner';
const FINAL = new Set(['passed', 'failed', 'error', 'cancelled']);
/** The platform's tests per launch when a run names none (services/df/test-runs/plan.ts, DEFAULT_STRATEGY). */
const PLATFORM_DEFAULT_BATCH = 20;

/** `count` durations, log-normal (Box–Muller) and clipped: many short tests, a long tail. */
export function skewedDurations(count: number, d: TestRunsOptions['durations']): number[] {
  const random = seeded(d.seed);
  return Array.from({ length: count }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.round(Math.min(d.maxMs, Math.max(d.minMs, d.medianMs * Math.exp(d.sigma * z))));
  });
}

const className = (c: number) => `Suite${String(c + 1).padStart(2, '0')}Test`;
const methodName = (n: number) => `scenario${String(n + 1).padStart(3, '0')}`;

/** Smali for `tests` JUnit 4 `@Test` methods spread over `classes` classes of `PKG`. */
function suiteSmali(tests: number, classes: number): Map<string, string> {
  const files = new Map<string, string>();
  for (let c = 0; c < classes; c++) {
    const methods: string[] = [];
    for (let n = c; n < tests; n += classes) {
      methods.push(`.method public ${methodName(n)}()V\n    .registers 1\n    .annotation runtime Lorg/junit/Test;\n    .end annotation\n    return-void\n.end method\n`);
    }
    files.set(
      `${className(c)}.smali`,
      `.class public L${PKG.replaceAll('.', '/')}/${className(c)};\n.super Ljava/lang/Object;\n\n` +
        '.annotation runtime Lorg/junit/runner/RunWith;\n    value = Landroidx/test/ext/junit/runners/AndroidJUnit4;\n.end annotation\n\n' +
        '.method public constructor <init>()V\n    .registers 1\n    invoke-direct {p0}, Ljava/lang/Object;-><init>()V\n    return-void\n.end method\n\n' +
        methods.join('\n'),
    );
  }
  return files;
}

/** Assembles smali sources (file name → text) into one DEX with Debian's smali. */
async function assemble(sources: Map<string, string>): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'qa-bench-dex-'));
  try {
    const src = join(dir, 'src', ...PKG.split('.'));
    mkdirSync(src, { recursive: true });
    for (const [name, text] of sources) writeFileSync(join(src, name), text);
    const out = join(dir, 'classes.dex');
    await run(SMALI, ['assemble', '--jobs', '1', '-o', out, join(dir, 'src')]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The app under test (one plain class) and its test APK (the suite, AndroidJUnitRunner on the app). */
async function buildApks(tests: number, classes: number): Promise<{ app: Buffer; tests: Buffer }> {
  const appDex = await assemble(new Map([['MainActivity.smali', `.class public L${PKG.replaceAll('.', '/')}/MainActivity;\n.super Ljava/lang/Object;\n`]]));
  const testDex = await assemble(suiteSmali(tests, classes));
  return {
    app: zipOf([['AndroidManifest.xml', testManifest(PKG)], ['classes.dex', appDex]]),
    tests: zipOf([['AndroidManifest.xml', testManifest(`${PKG}.test`, { runner: RUNNER, targetPackage: PKG })], ['classes.dex', testDex]]),
  };
}

interface Listed {
  className: string;
  methodName: string;
  ignored: boolean;
}

const key = (t: { className: string; methodName: string }) => `${t.className}#${t.methodName}`;

export async function measureTestRuns(options: TestRunsOptions): Promise<TestRunsReport> {
  if (!haveDexTools()) throw new Error('the test-runs step needs Debian\'s smali and dexdump (apt-get install smali dexdump)');
  const durations = skewedDurations(options.tests, options.durations);
  const building = phase(`assembling a test APK with ${options.tests} @Test methods in ${options.classes} classes (smali)`);
  const apks = await buildApks(options.tests, options.classes);
  building.done(`${num(apks.tests.length / 1024, 1)} KiB`);

  const peers: AdbdPeer[] = [];
  let adb: AdbServer | undefined;
  let started: Started | undefined;
  /** Each peer's shell commands as they arrive: performance.now() and the line. */
  const commands = new Map<AdbdPeer, { at: number; line: string }[]>();
  try {
    const starting = phase(`starting ${options.devices} adbd test devices behind Debian's adb`);
    adb = await startAdbServer();
    for (let n = 1; n <= options.devices; n++) {
      const { peer, port } = await startPeer({ model: `Bench Runner ${String(n).padStart(2, '0')}`, manufacturer: 'PeerWorks', release: '14', sdk: '34', width: 360, height: 640 });
      peers.push(peer);
      const seen: { at: number; line: string }[] = [];
      commands.set(peer, seen);
      peer.onCommand((line) => seen.push({ at: performance.now(), line }));
      await adb.connect(port);
    }
    starting.done('connected');
    started = await startServer('test-runs', { nodeName: 'bench-node', android: { adbHost: '127.0.0.1', adbPort: adb.port, uiautomator2: false }, devices: [] });
    const s = started;
    const devices = await until(async () => {
      const r = await api<{ content: { id: string; model: string; serial?: string; status: string }[] }>(s, 'GET', '/df/api/devices?platform=android&size=50');
      return r.body.content.length === options.devices && r.body.content.every((d) => d.status === 'available') ? r.body.content : undefined;
    }, 60_000, `${options.devices} available test devices`);
    const peerOf = new Map(devices.map((d) => [d.id, peers[Number(/\d+$/.exec(d.model)![0]) - 1]!]));

    const cataloguing = phase('cataloguing the app and its test APK');
    const appVersion = (await catalogued(s.server.url, s.token, 'bench-app.apk', apks.app)).versionId;
    const testVersion = (await catalogued(s.server.url, s.token, 'bench-app-androidTest.apk', apks.tests)).versionId;
    const listing = await api<{ runner: string; targetPackage: string; tests: Listed[] }>(s, 'GET', `/df/api/files/app-versions/${testVersion}/tests`);
    if (listing.status !== 200) throw new Error(`the test APK's listing answered ${listing.status}: ${JSON.stringify(listing.body)}`);
    const runnable = listing.body.tests.filter((t) => !t.ignored);
    if (runnable.length !== options.tests) throw new Error(`the platform lists ${runnable.length} runnable tests of the APK, not ${options.tests}`);
    cataloguing.done(`${runnable.length} tests listed`);

    // The platform lists the tests in its own order; each synthetic name carries its index, so a test's
    // duration does not depend on that order.
    const durationOf = new Map(runnable.map((t) => [key(t), durations[Number(/\d+$/.exec(t.methodName)![0]) - 1]!]));
    const suite: ScriptedSuite = {
      testPackage: `${PKG}.test`,
      runner: listing.body.runner,
      targetPackage: listing.body.targetPackage,
      tests: runnable.map((t) => ({ className: t.className, methodName: t.methodName, outcome: { kind: 'pass' }, durationMs: durationOf.get(key(t))! })),
    };
    for (const peer of peers) peer.scriptSuite(suite);
    const sumMs = durations.reduce((a, b) => a + b, 0);
    const sorted = [...durations].sort((a, b) => a - b);
    note(`durations: ${num(options.tests)} tests, sum ${num(sumMs / 1000, 1)} s, min ${sorted[0]} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms`);

    const report: TestRunsReport = {
      devices: options.devices,
      tests: options.tests,
      batchSize: options.batchSize ?? PLATFORM_DEFAULT_BATCH,
      durations: { sumMs, minMs: sorted[0]!, medianMs: sorted[Math.floor(sorted.length / 2)]!, maxMs: sorted.at(-1)! },
      runs: [],
    };
    for (const label of ['first run (no history)', 'second run (history of the first)']) {
      await until(async () => {
        const r = await api<{ content: { status: string }[] }>(s, 'GET', '/df/api/devices?platform=android&size=50');
        return r.body.content.filter((d) => d.status === 'available').length === options.devices ? true : undefined;
      }, 60_000, 'every device available again');
      for (const seen of commands.values()) seen.length = 0;
      report.runs.push(await oneRun(s, label, { appVersion, testVersion, durationOf, sumMs, commands, peerOf, options }));
    }
    return report;
  } finally {
    await started?.server.stop();
    await started?.cleanup();
    await adb?.stop();
    for (const p of peers) await p.close();
  }
}

interface RunContext {
  appVersion: string;
  testVersion: string;
  durationOf: Map<string, number>;
  sumMs: number;
  commands: Map<AdbdPeer, { at: number; line: string }[]>;
  peerOf: Map<string, AdbdPeer>;
  options: TestRunsOptions;
}

/** A run that reports no test for this long has stalled: the bench says how it was last seen and stops. */
const STALL_MS = 30_000;

/** What a stalled run looks like: each shard as the run's stream folds it, its last events, each device's last commands. */
async function describeStall(s: Started, runId: string, c: RunContext): Promise<void> {
  const events = (await s.server.platform.store.readStream(testRunStream(runId))) as unknown as TestRunEvent[];
  const state = fold(testRunDecider, events as never) as TestRunRecord;
  note(`stalled: ${events.length} events; status ${state.status}`);
  for (const shard of Object.values(state.shards)) {
    const seen = c.commands.get(c.peerOf.get(shard.deviceId)!) ?? [];
    const last = seen.at(-1);
    note(`shard ${shard.deviceId}: ${shard.state}, queue ${shard.queue.length}, running ${shard.running ? `${shard.running.key} since ${shard.running.startedAt}` : 'none'}; device's last command ${last ? `${((performance.now() - last.at) / 1000).toFixed(1)} s ago: ${last.line.slice(0, 80)}` : 'none'}`);
  }
  for (const e of events.slice(-12)) note(`event ${e.type} ${JSON.stringify(e.payload).slice(0, 160)}`);
}

async function oneRun(s: Started, label: string, c: RunContext): Promise<TestRunFigures> {
  const { options } = c;
  // A test reported lost ends after testTimeoutSeconds (the default, 600 s, would stall the bench on one).
  const strategy = { testTimeoutSeconds: options.testTimeoutSeconds, ...(options.batchSize === null ? {} : { batchSize: options.batchSize }) };
  let done = 0;
  const ticker = phase(label, () => done / options.tests);
  const postedAt = performance.now();
  const created = await api<{ id: string }>(s, 'POST', '/df/api/test-runs', { name: `bench ${label}`, appVersionId: c.appVersion, testVersionId: c.testVersion, devices: { platform: 'android' }, strategy });
  if (created.status !== 202) throw new Error(`POST /df/api/test-runs answered ${created.status}: ${JSON.stringify(created.body)}`);
  const runId = created.body.id;
  type Detail = { state: string; basis: string; queuedAt: string; endedAt: string | null; counts: { passed: number; failed: number; notRun: number }; strategy: { batchSize: number }; shards: { deviceId: string; state: string; reason: string | null }[] };
  // The run's state, read every pollMs until it is final: the end is observed at most pollMs late.
  let progressAt = performance.now();
  const detail = await until(async () => {
    const r = await api<Detail>(s, 'GET', `/df/api/test-runs/${runId}`);
    const now = r.body.counts.passed + r.body.counts.failed;
    if (now !== done) progressAt = performance.now();
    done = now;
    if (FINAL.has(r.body.state)) return r.body;
    if (performance.now() - progressAt > STALL_MS) {
      await describeStall(s, runId, c);
      throw new Error(`run ${runId} made no progress for ${STALL_MS / 1000} s at ${done} of ${options.tests} tests`);
    }
    return undefined;
  }, options.tests * 2_000 + 120_000, `run ${runId} to end`, options.pollMs);
  const finalAt = performance.now();
  const wallMs = finalAt - postedAt;
  const attempts = (await api<{ className: string; methodName: string; deviceId: string | null; durationMs: number; outcome: string; message: string | null }[]>(s, 'GET', `/df/api/test-runs/${runId}/tests`)).body;
  ticker.done(`${detail.state} in ${num(wallMs / 1000, 2)} s (planned by ${detail.basis})`);
  if (detail.state !== 'passed') note(`the run ended ${detail.state}: ${JSON.stringify(detail.counts)}`);
  for (const a of attempts.filter((x) => x.outcome !== 'passed')) note(`attempt ${key(a)} on ${a.deviceId}: ${a.outcome} after ${a.durationMs} ms — ${a.message ?? ''}`);
  for (const shard of detail.shards.filter((x) => x.state !== 'completed')) note(`shard ${shard.deviceId}: ${shard.state} — ${shard.reason ?? ''}`);

  // The plan as the run's stream holds it: each shard's tests, in order, with the durations the planner expected.
  const events = (await s.server.platform.store.readStream(testRunStream(runId))) as unknown as TestRunEvent[];
  const planned = events.find((e): e is Extract<TestRunEvent, { type: 'TestRunPlanned' }> => e.type === 'TestRunPlanned');
  if (!planned) throw new Error(`run ${runId} has no plan`);
  const moved = events.filter((e) => e.type === 'TestsReplanned' || e.type === 'TestRetryScheduled').length;
  if (moved > 0) note(`${moved} retries or moved tests: the device timelines below follow the plan and are approximate`);
  const batchSize = detail.strategy.batchSize;
  if (process.env.BENCH_TRACE) {
    const first = planned.payload.shards[0]!;
    for (const x of c.commands.get(c.peerOf.get(first.deviceId)!) ?? []) if (x.at >= postedAt) note(`trace ${((x.at - postedAt) / 1000).toFixed(2)} s: ${x.line.slice(0, 90)}`);
  }

  const timelines: DeviceTimeline[] = planned.payload.shards.map((shard) => {
    const seen = c.commands.get(c.peerOf.get(shard.deviceId)!) ?? [];
    const installs = seen.filter((x) => /\binstall\b/.test(x.line));
    const launches = seen.filter((x) => x.line.startsWith('am instrument'));
    let gaps = 0;
    let lastEnd = 0;
    launches.forEach((launch, i) => {
      const testsOf = shard.tests.slice(i * batchSize, (i + 1) * batchSize);
      const end = launch.at + testsOf.reduce((ms, t) => ms + c.durationOf.get(key(t))!, 0);
      const next = launches[i + 1];
      if (next) gaps += next.at - end;
      lastEnd = end;
    });
    return {
      deviceId: shard.deviceId,
      tests: shard.tests.length,
      testMs: shard.tests.reduce((ms, t) => ms + c.durationOf.get(key(t))!, 0),
      plannedMs: shard.tests.reduce((ms, t) => ms + t.plannedMs, 0),
      firstInstallAt: installs[0] ? installs[0].at - postedAt : null,
      firstLaunchAt: (launches[0]?.at ?? Number.NaN) - postedAt,
      launches: launches.length,
      launchGapsMs: gaps,
      lastTestEndAt: lastEnd - postedAt,
    };
  });
  const critical = timelines.reduce((a, b) => (b.lastTestEndAt > a.lastTestEndAt ? b : a));
  const spread = (values: number[]) => Math.max(...values) / Math.min(...values);
  const idealMs = c.sumMs / options.devices;
  return {
    basis: detail.basis,
    state: detail.state,
    batchSize,
    wallMs,
    platformMs: Date.parse(detail.endedAt ?? detail.queuedAt) - Date.parse(detail.queuedAt),
    sumMs: c.sumMs,
    recordedSumMs: attempts.reduce((ms, a) => ms + a.durationMs, 0),
    idealMs,
    ratio: wallMs / idealMs,
    overheadPerTestMs: (wallMs * options.devices - c.sumMs) / options.tests,
    plannedSpread: spread(timelines.map((t) => t.plannedMs)),
    workSpread: spread(timelines.map((t) => t.testMs)),
    passed: detail.counts.passed,
    attempts: attempts.length,
    devices: timelines,
    critical: {
      deviceId: critical.deviceId,
      setupMs: critical.firstLaunchAt,
      testMs: critical.testMs,
      launchGapsMs: critical.launchGapsMs,
      launches: critical.launches,
      tailMs: wallMs - critical.lastTestEndAt,
    },
  };
}

export function formatTestRuns(r: TestRunsReport, goals: { ratioMax: number; overheadPerTestMs: number }): string {
  const s = (ms: number, digits = 2) => num(ms / 1000, digits);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const runs = r.runs.map((run, i) => [
    i === 0 ? 'first' : 'second',
    run.basis,
    String(run.batchSize),
    `${run.passed}/${r.tests}`,
    s(run.wallMs),
    s(run.platformMs),
    s(run.idealMs),
    `${num(run.ratio, 3)}${run.ratio <= goals.ratioMax ? '' : ' (over)'}`,
    `${num(run.overheadPerTestMs, 1)}${run.overheadPerTestMs < goals.overheadPerTestMs ? '' : ' (over)'}`,
    num(run.plannedSpread, 3),
    num(run.workSpread, 3),
  ]);
  const where = r.runs.map((run, i) => [
    i === 0 ? 'first' : 'second',
    s(mean(run.devices.map((d) => d.firstInstallAt ?? Number.NaN))),
    s(mean(run.devices.map((d) => d.firstLaunchAt))),
    s(Math.max(...run.devices.map((d) => d.firstLaunchAt))),
    num(mean(run.devices.map((d) => d.launches)), 1),
    num(mean(run.devices.flatMap((d) => (d.launches > 1 ? [d.launchGapsMs / (d.launches - 1)] : []))), 0),
    s(Math.min(...run.devices.map((d) => d.lastTestEndAt))),
    s(Math.max(...run.devices.map((d) => d.lastTestEndAt))),
    `${s(run.critical.setupMs)} + ${s(run.critical.testMs)} + ${s(run.critical.launchGapsMs)} (${run.critical.launches - 1} gaps) + ${s(run.critical.tailMs)}`,
  ]);
  return (
    `Test runs — ${r.devices} adbd test devices, ${r.tests} passing tests (durations ${r.durations.minMs}–${r.durations.maxMs} ms, median ${r.durations.medianMs} ms, ` +
    `sum ${s(r.durations.sumMs, 1)} s), ${r.batchSize} tests per am instrument; wall = POST → final state seen; ideal = sum ÷ devices; ` +
    `overhead per test = (wall × devices − sum) ÷ tests; spreads are max/min of the shards' planned and real work\n` +
    table(['run', 'basis', 'batch', 'passed', 'wall s', 'queued→ended s', 'ideal s', 'wall/ideal', 'overhead/test ms', 'planned spread', 'work spread'], runs) +
    `\nWhere the time goes (device side: s from POST; a launch's end = its start + its tests' durations)\n` +
    table(['run', 'first install, mean', 'first launch, mean', 'first launch, max', 'launches/device', 'launch gap, mean ms', 'tests end, first device', 'tests end, last device', 'last device: setup + tests + gaps + tail to final state'], where)
  );
}
