/*
 * What metrics and tracing cost the gateway, counted in instructions rather than seconds
 * (`--only=metrics-instructions`; needs valgrind, Debian's package of that name). The `metrics` step
 * (bench/metrics-cost.ts) measures throughput, which on a two-core machine shared with the load
 * generator moves with the process a configuration lands in by as much as the goals' margins. Here each
 * configuration's server runs under `valgrind --tool=callgrind`, which counts the instructions the
 * process executes (every thread; with the flags below V8 keeps its work on the main one) whatever the
 * machine does meanwhile, and the step reports instructions per request.
 *
 * The process starts with counting off (the platform's start would take minutes under it), is warmed up,
 * then counting is switched on (`callgrind_control -i on`). Each measured window is bracketed by full
 * garbage collections: one before the counters are zeroed, one after the window's requests and its one
 * `/metrics` scrape, before the counters are dumped. So the window pays for collecting all the garbage
 * its own requests made, once, instead of for whichever major collection happened to fall in it (the
 * difference between two windows of 3,000 requests without the brackets was 40 %). Spans leave in batches
 * of 512 (the export's clock is set far away: at the real rates they leave that way too, and under
 * callgrind a clock-driven export would send many more, smaller batches per request), and at the end of
 * each window those still waiting are sent, so that a window pays for exactly its own spans. Sampling at
 * 10 % is random: the OTLP bytes a request are reported beside the count, to show the sampled share.
 *
 * The server runs with V8's optimizing compilers off and on one thread (`V8_FLAGS` below): with them, the
 * windows of one configuration differed by up to 46 %, the optimizing compiler alone by hundreds of
 * millions of instructions from one window to the next. What still moves the windows is the idle
 * server's work by the clock (its polls and timers), about half a window under callgrind: it is counted
 * in idle stretches before and after the windows and subtracted, which docs/performance.md shows is not
 * yet enough to settle the goals.
 *
 * Instructions are not time: a cache miss costs more than an addition, and the sending of the export's
 * bytes costs the kernel time that is not counted. They are the part of the cost that depends on the
 * code alone, and they are the same from one run to the next.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { note, num, table } from './console.js';
import { LoadGenerator } from './load-generator.js';
import { configLabel, METRICS_CONFIGS, type MetricsConfig } from './metrics-cost.js';
import { Observer } from './observer.js';
import { median } from './stats.js';

const ROUTE = '/df/api/client-config';

/**
 * The measured server's code stays as it was compiled first: V8's optimizing compilers (TurboFan and
 * Maglev) off, so no window pays for optimizing, throwing away and optimizing again the request's path
 * (with them on, that work came and went by hundreds of millions of instructions from one window to the
 * next), and one thread (`--single-threaded`: no collector or compiler helpers), so the collections'
 * work falls in the window whose garbage they collect. The interpreter and the baseline compiler run
 * every configuration's code alike: the counts are a baseline tier's, higher than the optimized code's,
 * and what is compared is their ratio.
 */
const V8_FLAGS = ['--no-opt', '--no-maglev', '--single-threaded'];

export interface MetricsInstructionsOptions {
  connections: number;
  /** Requests answered, counting off, before the first window. */
  warmupRequests: number;
  /** Requests in one measured window. */
  windowRequests: number;
  windows: number;
  /** Length of each of the two idle stretches that measure the clock's work. */
  idleSeconds: number;
  /** Configurations measured at once (each one valgrind process, one core). */
  parallel: number;
}

export const METRICS_INSTRUCTIONS_DEFAULTS: MetricsInstructionsOptions = { connections: 10, warmupRequests: 10_000, windowRequests: 5_000, windows: 5, idleSeconds: 30, parallel: 2 };

export interface ConfigInstructions {
  config: MetricsConfig;
  /** Instructions per request answered, one per window, less the clock's work in the window's seconds. */
  perRequest: number[];
  /** Instructions per request as counted, one per window. */
  rawPerRequest: number[];
  /** Each window's length in seconds. */
  windowSeconds: number[];
  /** The idle server's instructions a second, before the windows and after them. */
  idlePerSecond: number[];
  /** The median window's figure. */
  median: number;
  /** OTLP bytes the receiver got per request, by window (the sampled share moves them: sampling is random). */
  otlpBytes: number[];
}

export interface MetricsInstructionsReport {
  route: string;
  options: MetricsInstructionsOptions;
  configs: ConfigInstructions[];
}

const CONFIGS = METRICS_CONFIGS;
const labelOf = (c: MetricsConfig) => configLabel(c).trim();

/** valgrind's version, or an error that says what to install. */
function valgrindVersion(): string {
  try {
    return execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('the metrics-instructions step needs valgrind (apt-get install valgrind)');
  }
}

/** The `totals:` line of a callgrind dump: the instructions counted since the counters were last zeroed. */
export function callgrindTotal(dump: string): number {
  const m = /^totals: (\d+)/m.exec(dump);
  if (!m) throw new Error('a callgrind dump without a totals line');
  return Number(m[1]);
}

interface Ready {
  url: string;
  metricsUrl: string | null;
  token: string;
}

/** One configuration's server under callgrind, measured window by window. */
async function measureConfig(config: MetricsConfig, options: MetricsInstructionsOptions, stopped: () => boolean): Promise<ConfigInstructions> {
  const label = labelOf(config);
  const outDir = mkdtempSync(join(tmpdir(), 'qa-bench-callgrind-'));
  const observer = await Observer.start();
  const load = new LoadGenerator();
  let child: ChildProcess | null = null;
  try {
    // Two configurations run at once: each event is a line of its own (a ticking phase line would interleave).
    const started = Date.now();
    const say = (text: string) => note(`${label} (${num((Date.now() - started) / 1000)} s): ${text}`);
    say('starting under callgrind, counting off');
    child = fork(new URL('./metrics-instructions-child.ts', import.meta.url), [JSON.stringify({ config, endpoint: observer.endpoint })], {
      execPath: 'valgrind',
      execArgv: ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', `--callgrind-out-file=${join(outDir, 'callgrind.%p')}`, '--quiet', process.execPath, ...V8_FLAGS, '--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const running = child;
    const next = <T>(): Promise<T> =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`${label}: the measured process exited (${code})`));
        running.once('exit', onExit);
        running.once('message', (m: T) => {
          running.off('exit', onExit);
          resolve(m);
        });
      });
    const ready = await next<Ready>();
    say('ready');
    const pid = String(running.pid);
    const control = (...args: string[]) => execFileSync('callgrind_control', [...args, pid], { stdio: 'ignore' });
    const ask = async (what: 'gc' | 'flush') => {
      const answered = next<unknown>();
      running.send({ [what]: true });
      await answered;
    };
    const collect = () => ask('gc');
    const request = (amount: number) =>
      load.run({ url: `${ready.url}${ROUTE}`, headers: { authorization: `Bearer ${ready.token}`, 'x-workspace-id': '1' }, connections: options.connections, durationSeconds: 0, amount, timeoutSeconds: 600 });
    say(`${options.warmupRequests} requests to warm up, counting off`);
    const warm = await request(options.warmupRequests);
    if (warm.ok !== options.warmupRequests) throw new Error(`${label}: ${options.warmupRequests - warm.ok} warm-up requests failed`);
    say(`warm (${num(warm.requestsPerSecond)} req/s uncounted)`);
    await ask('flush');
    control('-i', 'on');
    // One counted stretch: counters zeroed after a collection, `work` done, a collection, counters dumped.
    // Answers the instructions counted and the seconds between the zeroing and the dump.
    const counted = async (work: () => Promise<void>): Promise<{ total: number; seconds: number }> => {
      await collect();
      control('-z');
      const started = performance.now();
      await work();
      await collect();
      control('-d');
      const seconds = (performance.now() - started) / 1000;
      // callgrind.<pid>.<n>: the n-th dump (callgrind.<pid> itself is written at the process's end).
      const dumps = readdirSync(outDir).filter((f) => /^callgrind\.\d+\.\d+$/.test(f)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
      return { total: callgrindTotal(readFileSync(join(outDir, dumps.at(-1)!), 'utf8')), seconds };
    };
    // What the idle server does by the clock (its pollers and timers), in instructions a second: a stretch
    // with no request at all, before the windows and after them. The stretch's length is what is
    // measured, so it is waited out.
    const idle = async (when: string) => {
      const { total, seconds } = await counted(() => new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000)));
      say(`idle ${when}: ${num(total / seconds)} instructions a second`);
      return total / seconds;
    };
    const idleBefore = await idle('before the windows');
    const rawPerRequest: number[] = [];
    const windowSeconds: number[] = [];
    const otlpBytes: number[] = [];
    for (let w = 1; w <= options.windows; w++) {
      if (stopped()) throw new Error(`${label}: stopped, another configuration failed`);
      await observer.countFromNow();
      let ok = 0;
      const { total, seconds } = await counted(async () => {
        ok = (await request(options.windowRequests)).ok;
        if (ready.metricsUrl) await (await fetch(ready.metricsUrl)).text();
        await ask('flush');
      });
      const { bytes } = await observer.stop();
      if (ok !== options.windowRequests) throw new Error(`${label}: ${options.windowRequests - ok} requests of window ${w} failed`);
      rawPerRequest.push(total / ok);
      windowSeconds.push(seconds);
      otlpBytes.push(bytes / ok);
      say(`window ${w} of ${options.windows}: ${num(total / ok)} instructions a request in ${num(seconds)} s${config.ratio !== null ? `, ${num(bytes / ok)} bytes of OTLP a request` : ''}`);
    }
    const idlePerSecond = [idleBefore, await idle('after the windows')];
    // A window's requests' own instructions: its count less what the clock's work took in its seconds
    // (at the mean of the two idle rates).
    const clock = (idlePerSecond[0]! + idlePerSecond[1]!) / 2;
    const perRequest = rawPerRequest.map((raw, i) => raw - (clock * windowSeconds[i]!) / options.windowRequests);
    return { config, perRequest, median: median(perRequest), rawPerRequest, windowSeconds, idlePerSecond, otlpBytes };
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
      child.send({ stop: true });
      await exited;
    }
    await load.close();
    await observer.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Every configuration, `options.parallel` at a time; valgrind's version is checked first. */
export async function measureMetricsInstructions(options: MetricsInstructionsOptions): Promise<MetricsInstructionsReport> {
  note(`${valgrindVersion()}; ${options.parallel} configurations at a time, ${options.windows} windows of ${options.windowRequests} requests each after ${options.warmupRequests} uncounted`);
  const configs: ConfigInstructions[] = new Array(CONFIGS.length);
  let nextIndex = 0;
  // A failure stops the configuration measured beside it at its next window, so the run ends.
  let failed = false;
  let firstFailure: unknown;
  const worker = async () => {
    while (!failed && nextIndex < CONFIGS.length) {
      const i = nextIndex++;
      try {
        configs[i] = await measureConfig(CONFIGS[i]!, options, () => failed);
      } catch (err) {
        if (!failed) firstFailure = err;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
  if (failed) throw firstFailure;
  return { route: ROUTE, options, configs };
}

export function formatMetricsInstructions(report: MetricsInstructionsReport): string {
  const off = report.configs[0]!.median;
  const on = report.configs[1]!.median;
  const rows = report.configs.map((c) => [
    labelOf(c.config),
    c.perRequest.map((v) => num(v)).join(' / '),
    num(median(c.rawPerRequest)),
    c.idlePerSecond.map((v) => num(v)).join(' / '),
    num(c.median),
    `${num((c.median / off) * 100, 1)} %`,
    c.config.ratio !== null ? `${num((c.median / on) * 100, 1)} %` : '',
  ]);
  const traced = report.configs.find((c) => c.config.ratio === 0.1);
  // "x % more" or "x % fewer", never "-0.0 % more".
  const more = (a: number, b: number) => {
    const change = Math.round((a / b - 1) * 1000) / 10 || 0; // || 0: a -0 rounds to 0
    return change < 0 ? `${num(-change, 1)} % fewer` : `${num(change, 1)} % more`;
  };
  const metricsOn = report.configs[1]!;
  return `Metrics and tracing cost in instructions: GET ${report.route} through the gateway under callgrind, ${report.options.connections} connections, ${report.options.windows} windows of ${report.options.windowRequests} requests after ${report.options.warmupRequests} to warm up, each window bracketed by full garbage collections, V8 with ${V8_FLAGS.join(' ')}\n${table(
    ['configuration', "a request less the clock's work, by window", 'counted (median)', 'idle a second (before / after)', 'median', 'of off', 'of metrics on'],
    rows,
  )}\nmetrics on: ${more(metricsOn.median, off)} instructions a request than off (the goal: under 3 % of throughput lost)\n${traced ? `metrics on and tracing at 10 %: ${more(traced.median, off)} than off (the goal: under 10 % of throughput lost), ${more(traced.median, on)} than metrics on alone\n` : ''}`;
}
