/*
 * The first WebDriver session of a run: `POST /df/wd/session` on an idle browser device until the first
 * command (`GET /session/{id}/url`) is answered, then the same for the sessions after it. Side by side:
 * the host as it ships (`startAhead`: Appium and a spare Chromium started ahead of need) and the baseline
 * without (`startAhead: false`: the first session starts Appium, every session starts Chromium), in
 * alternating rounds on a fresh server each, so machine noise falls on both alike.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserDevice } from '#agent/browser/device.js';
import type { RunningProcess } from '#services/run.js';
import { phase, table } from './console.js';
import { until } from './device-farm.js';
import { CHROMIUM, signIn, startBenchServer } from './server.js';
import { distribution, type Distribution } from './stats.js';

export interface WebdriverFirstOptions {
  /** Fresh servers per mode. */
  rounds: number;
  /** Sessions one after another on each server; the first is "the first of a run". */
  sessions: number;
}

export interface WebdriverFirstReport {
  rounds: number;
  sessions: number;
  /** New session → first command answered, ms: the first session of each round, and the later ones. */
  warm: { first: Distribution; later: Distribution };
  baseline: { first: Distribution; later: Distribution };
  /** Baseline ÷ warm for the first session, at p50. */
  firstSpeedup: number;
}

/** One server: waits until the device is listed (and, warm, until Appium and the spare run), then times `sessions` sessions. */
async function round(startAhead: boolean, sessions: number): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qa-bench-wd-first-'));
  const agentConfig = join(dataDir, 'agent.json');
  writeFileSync(agentConfig, JSON.stringify({ nodeName: 'bench-node', chromiumPath: CHROMIUM, heartbeatMs: 500, startAhead, devices: [{ provider: 'browser', name: 'Bench Chromium', profile: 'desktop', width: 800, height: 600 }] }));
  let server: RunningProcess | undefined;
  try {
    server = await startBenchServer(dataDir, { AGENT_CONFIG: agentConfig });
    const s = server;
    const auth = { authorization: `Bearer ${await signIn(s.url)}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.url}${path}`, { method, headers: auth, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return { status: r.status, body: (await r.json().catch(() => null)) as any };
    };
    const available = () => until(async () => {
      const d = (await call('GET', '/df/api/devices')).body?.content?.[0] as { id: string; status: string } | undefined;
      return d?.status === 'available' ? d.id : undefined;
    }, 60_000, 'the browser device listed available');
    const deviceId = await available();
    const device = () => s.agent!.driverOf(deviceId) as BrowserDevice;
    // What a CI job that arrives at an idle host finds: with startAhead, what the host started ahead is up.
    if (startAhead) await until(async () => (s.agent!.appium?.baseUrl && device().browsers().spare ? true : undefined), 60_000, 'Appium and a spare Chromium started ahead');
    const times: number[] = [];
    for (let i = 0; i < sessions; i++) {
      const started = performance.now();
      const created = await call('POST', '/df/wd/session', { capabilities: { alwaysMatch: { browserName: 'chrome' } } });
      if (created.status !== 200) throw new Error(`POST /df/wd/session answered ${created.status}: ${JSON.stringify(created.body)}`);
      const id = created.body.value.sessionId as string;
      const url = await call('GET', `/df/wd/session/${id}/url`);
      if (url.status !== 200 || typeof url.body?.value !== 'string') throw new Error(`first command answered ${url.status}`);
      times.push(performance.now() - started);
      await call('DELETE', `/df/wd/session/${id}`);
      await available();
      if (startAhead) await until(async () => (device().browsers().spare ? true : undefined), 60_000, 'the next spare Chromium');
    }
    return times;
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureWebdriverFirst(options: WebdriverFirstOptions): Promise<WebdriverFirstReport> {
  const runs = { warm: [] as number[][], baseline: [] as number[][] };
  const measuring = phase(`${options.rounds} rounds × ${options.sessions} sessions, startAhead on and off alternately, a fresh server each`, () => (runs.warm.length + runs.baseline.length) / (2 * options.rounds));
  for (let r = 0; r < options.rounds; r++) {
    runs.baseline.push(await round(false, options.sessions));
    runs.warm.push(await round(true, options.sessions));
  }
  const split = (all: number[][]) => ({ first: distribution(all.map((t) => t[0]!)), later: distribution(all.flatMap((t) => t.slice(1))) });
  const warm = split(runs.warm);
  const baseline = split(runs.baseline);
  measuring.done(`first session p50 ${Math.round(warm.first.p50)} ms warm, ${Math.round(baseline.first.p50)} ms without`);
  return { rounds: options.rounds, sessions: options.sessions, warm, baseline, firstSpeedup: baseline.first.p50 / warm.first.p50 };
}

/** The figures as a short text block for the bench report. */
export function formatWebdriverFirst(r: WebdriverFirstReport): string {
  const ms = (v: number) => Math.round(v).toString();
  const row = (label: string, d: Distribution) => [label, ms(d.p50), ms(d.max)];
  return (
    `WebDriver new session → first command answered, browser device (${r.rounds} fresh servers per mode, ${r.sessions} sessions each), ms:\n` +
    table(['', 'p50', 'max'], [
      row('first session, startAhead (as shipped)', r.warm.first),
      row('first session, startAhead: false (baseline)', r.baseline.first),
      row('later sessions, startAhead', r.warm.later),
      row('later sessions, startAhead: false', r.baseline.later),
    ]) +
    `\nfirst session: baseline ÷ startAhead at p50 ${r.firstSpeedup.toFixed(2)}× (goal: the first ≤ 1,500 ms)\n`
  );
}

/** `npx tsx bench/webdriver-first.ts`: this figure alone. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureWebdriverFirst({ rounds: 3, sessions: 3 });
  process.stdout.write(`\n${formatWebdriverFirst(r)}`);
  process.exit(0);
}
