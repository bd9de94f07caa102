/*
 * The web console in a real browser (Debian's Chromium through playwright-core) against a started
 * server: the initial JavaScript sent to the browser (gzipped), the time to the first painted device
 * grid with 1,000 devices, and the live screen's latency from a frame's arrival at the page's socket
 * to the paint that shows it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { WebSocket } from 'ws';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import type { BrowserDevice } from '#agent/browser/device.js';
import { note, num, phase, table } from './console.js';
import { api, BENCH_POOL_TOKEN, simulatedAgent, startAnimatedPage, startServer, until } from './device-farm.js';
import { CHROMIUM } from './server.js';
import { distribution, type Distribution } from './stats.js';

export interface WebConsoleOptions {
  devices: number;
  agents: number;
  gridLoads: number;
  frameSeconds: number;
  /** Sessions opened from the device page, and as many through the API alone (the baseline). */
  opens: number;
}

/** One session start in the console, from the page's marks (ms after the click). */
export interface OpenRound {
  created: number;
  socketOpen: number;
  firstFrame: number;
  firstPaint: number;
}

export interface WebConsoleReport {
  /** Scripts index.html loads at once (entry and module preloads), gzipped as served. */
  initialJsGzipKiB: number;
  initialCssGzipKiB: number;
  devices: number;
  /** Navigation start → the first device card painted (a new browser context each time: nothing cached). */
  gridFirstPaintMs: Distribution;
  /** A JPEG frame's message event on the page's WebSocket → the animation frame after it was drawn. */
  frameToPaintMs: Distribution;
  framesPainted: number;
  /** Click on "Start a session" → the first frame painted on the session page, with the marks between. */
  open: { toCreated: Distribution; toSocketOpen: Distribution; toFirstFrame: Distribution; toFirstPaint: Distribution };
  /** The same through the API alone: POST /df/api/sessions → its viewer socket's first frame (no browser). */
  apiOpen: { toCreated: Distribution; toFirstFrame: Distribution };
  /** Where `POST /df/api/sessions` spent its time, per step of its `Server-Timing` header (both paths' POSTs). */
  createSteps: Record<string, Distribution>;
}

/** `name;dur=12.3, other;dur=4` → { name: 12.3, other: 4 }. */
function serverTiming(header: string | null): Record<string, number> {
  const steps: Record<string, number> = {};
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = params.find((p) => p.trim().startsWith('dur='));
    if (name && dur) steps[name] = (steps[name] ?? 0) + Number(dur.trim().slice(4));
  }
  return steps;
}

const ROOT = new URL('..', import.meta.url).pathname;

// What the functions passed to page.evaluate see in the browser (the project's types have no DOM).
declare const window: { __bench: { gridPainted: number | null; latencies: number[] } };
const DIST = join(ROOT, 'console', 'dist');

function initialAssets(): { js: number; css: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const size = (ext: string) => refs.filter((r) => r.endsWith(ext)).reduce((sum, r) => sum + statSync(join(DIST, `${r}.gz`)).size, 0);
  return { js: size('.js') / 1024, css: size('.css') / 1024 };
}

/** The page's own record of the first real device card it painted, and of frame latencies. */
export const INSTRUMENT = `(() => {
  window.__bench = { gridPainted: null, latencies: [] };
  new MutationObserver((_m, observer) => {
    if (document.querySelector('.device-card:not(.skeleton)')) {
      observer.disconnect();
      requestAnimationFrame(() => { window.__bench.gridPainted = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
  const arrivals = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => { if (typeof e.data !== 'string') arrivals.push(performance.now()); });
    }
  };
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    const result = draw.apply(this, args);
    const arrived = arrivals.shift();
    if (arrived !== undefined) requestAnimationFrame(() => window.__bench.latencies.push(performance.now() - arrived));
    return result;
  };
})();`;

export async function measureWebConsole(options: WebConsoleOptions): Promise<WebConsoleReport> {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: 'inherit' });
  const assets = initialAssets();
  note(`initial assets of index.html: ${num(assets.js, 1)} KiB of JavaScript, ${num(assets.css, 1)} KiB of CSS, gzipped`);
  const site = await startAnimatedPage();
  const started = await startServer(
    'console',
    { nodeName: 'bench-node', hubId: 'bench-hub', chromiumPath: CHROMIUM, devices: [{ provider: 'browser', name: 'Bench Chromium', profile: 'desktop', width: 800, height: 600 }] },
    { DF_SHARED_POOL_TOKEN: BENCH_POOL_TOKEN },
  );
  const agents: AgentHost[] = [];
  let browser: Browser | undefined;
  try {
    const s = started;
    const perAgent = Math.ceil((options.devices - 1) / options.agents);
    const registering = phase(`registering ${num(options.devices - 1)} simulated devices from ${options.agents} agents, besides the Chromium device`);
    for (let i = 0; i < options.agents; i++) {
      const config = loadAgentConfig({ value: simulatedAgent(i, Math.min(perAgent, options.devices - 1 - i * perAgent), 2_000) });
      const agent = new AgentHost({ bus: s.server.platform.bus, config, logger: s.server.logger.child({ component: 'bench-agent' }) });
      agents.push(agent);
      await agent.start();
    }
    const total = await until(async () => {
      const r = await api<{ totalElements: number }>(s, 'GET', '/df/api/devices?size=1');
      return r.body.totalElements >= options.devices ? r.body.totalElements : undefined;
    }, 300_000, `${options.devices} devices in the list`);
    registering.done(`${num(total)} listed`);

    browser = await chromium.launch({ executablePath: CHROMIUM });
    const refresh = await fetch(`${s.server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench-admin@example.com', password: 'bench admin password' }),
    });
    const pair = (await refresh.json()) as { token: string; refreshToken: string };
    const claims = JSON.parse(Buffer.from(pair.token.split('.')[1]!, 'base64url').toString()) as { sub: string; wid?: number; exp: number };
    const auth = JSON.stringify({ token: pair.token, refreshToken: pair.refreshToken, userId: Number(claims.sub), workspaceId: claims.wid ?? 1, expiresAt: claims.exp * 1000 });
    const newPage = async () => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript(`localStorage.setItem('qa.auth', ${JSON.stringify(auth)});`);
      await context.addInitScript(INSTRUMENT);
      return { context, page: await context.newPage() };
    };

    const grid: number[] = [];
    const loading = phase(`loading /devices ${options.gridLoads} times, each in a new browser context`);
    for (let i = 0; i < options.gridLoads; i++) {
      const { context, page } = await newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
      await page.goto(`${s.server.url}/devices`);
      await page.waitForFunction(() => window.__bench.gridPainted !== null, null, { timeout: 30_000 }).catch(async (err: unknown) => {
        throw new Error(`no device grid painted at ${page.url()}: ${(await page.locator('body').textContent())?.slice(0, 300)} ${problems.join('; ')}`, { cause: err });
      });
      grid.push((await page.evaluate(() => window.__bench.gridPainted))!);
      await context.close();
    }
    const gridFirstPaintMs = distribution(grid);
    loading.done(`p50 ${num(gridFirstPaintMs.p50, 0)} ms`);

    const device = await until(async () => {
      const r = await api<{ content: { id: string; status: string }[] }>(s, 'GET', '/df/api/devices?platform=web');
      const d = r.body.content[0];
      return d?.status === 'available' ? d : undefined;
    }, 30_000, 'the Chromium device');

    // Session starts, alternating: from the console's device page (a click) and through the API alone.
    const rounds: OpenRound[] = [];
    const apiRounds: { created: number; firstFrame: number }[] = [];
    const steps: Record<string, number>[] = [];
    const opening = phase(`opening ${options.opens} sessions from the device page and ${options.opens} through the API alone, alternating`);
    // What a tester who clicks finds at an idle device: listed available, and the browser the host
    // launches ahead of the next session (a new process on a new profile, after each release) up.
    const driver = () => s.server.agent!.driverOf(device.id) as BrowserDevice;
    const available = () =>
      until(
        async () => ((await api<{ status: string }>(s, 'GET', `/df/api/devices/${device.id}`)).body.status === 'available' && driver().browsers().spare ? true : undefined),
        60_000,
        'the Chromium device available again, its next browser launched',
      );
    await available();
    for (let i = 0; i < options.opens; i++) {
      const { context, page } = await newPage();
      page.on('response', (r) => {
        if (r.request().method() === 'POST' && r.url().endsWith('/df/api/sessions')) void r.headerValue('server-timing').then((h) => steps.push(serverTiming(h)));
      });
      await page.goto(`${s.server.url}/devices/${device.id}`);
      const startButton = page.getByRole('button', { name: 'Start a session' });
      await startButton.waitFor();
      await until(async () => ((await startButton.isEnabled()) ? true : undefined), 30_000, 'the Start a session button enabled');
      // Let the device page's own work (the session code it preloads) finish, as a tester's reading would.
      await page.waitForLoadState('networkidle');
      await startButton.click();
      await page.waitForFunction(() => performance.getEntriesByName('df:first-paint').length > 0, null, { timeout: 30_000 });
      // A string: a function here would carry the bundler's naming helper into the page.
      const marks = (await page.evaluate(`(() => {
        const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
        const open = at('df:open');
        return { created: at('df:session-created') - open, socketOpen: at('df:socket-open') - open, firstFrame: at('df:first-frame') - open, firstPaint: at('df:first-paint') - open };
      })()`)) as OpenRound;
      rounds.push(marks);
      const sessionId = page.url().split('/sessions/')[1]!;
      await context.close();
      await api(s, 'DELETE', `/df/api/sessions/${sessionId}`);
      await available();

      const began = performance.now();
      const posted = await fetch(`${s.server.url}/df/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ deviceId: device.id }),
      });
      const made = { status: posted.status, body: (await posted.json()) as { id: string } };
      const createdAt = performance.now() - began;
      if (made.status !== 201) throw new Error(`POST /df/api/sessions answered ${made.status}`);
      steps.push(serverTiming(posted.headers.get('server-timing')));
      const firstFrame = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${s.server.url.replace('http', 'ws')}/df/ws/sessions/${made.body.id}?access_token=${s.token}`);
        ws.binaryType = 'arraybuffer';
        const timer = setTimeout(() => reject(new Error('no frame within 30 s')), 30_000);
        ws.onmessage = (e) => {
          if (typeof e.data === 'string') return;
          clearTimeout(timer);
          resolve(performance.now() - began);
          ws.close();
        };
        ws.onerror = () => reject(new Error('the viewer socket failed'));
      });
      apiRounds.push({ created: createdAt, firstFrame });
      await api(s, 'DELETE', `/df/api/sessions/${made.body.id}`);
      await available();
    }
    const open = {
      toCreated: distribution(rounds.map((r) => r.created)),
      toSocketOpen: distribution(rounds.map((r) => r.socketOpen)),
      toFirstFrame: distribution(rounds.map((r) => r.firstFrame)),
      toFirstPaint: distribution(rounds.map((r) => r.firstPaint)),
    };
    const apiOpen = { toCreated: distribution(apiRounds.map((r) => r.created)), toFirstFrame: distribution(apiRounds.map((r) => r.firstFrame)) };
    opening.done(`console p50 ${num(open.toFirstPaint.p50, 0)} ms to the first painted frame; API alone ${num(apiOpen.toFirstFrame.p50, 0)} ms to the first frame`);
    const created = await api<{ id: string }>(s, 'POST', '/df/api/sessions', { deviceId: device.id });
    if (created.status !== 201) throw new Error(`POST /df/api/sessions answered ${created.status}`);
    await api(s, 'POST', `/df/api/sessions/${created.body.id}/device/control`, { action: 'openUrl', url: site.url });
    const watching = phase(`watching the session's live screen in the console for ${options.frameSeconds} s (an animated page)`);
    const { context, page } = await newPage();
    await page.goto(`${s.server.url}/sessions/${created.body.id}`);
    await page.waitForFunction(() => window.__bench.latencies.length > 5, null, { timeout: 30_000 });
    // Drop the warm-up frames, then measure for the set time.
    await page.evaluate(() => void (window.__bench.latencies.length = 0));
    await page.waitForTimeout(options.frameSeconds * 1000);
    const latencies = await page.evaluate(() => window.__bench.latencies.slice());
    await context.close();
    const frameToPaintMs = distribution(latencies);
    watching.done(`${latencies.length} frames painted, p50 ${num(frameToPaintMs.p50, 1)} ms`);
    await api(s, 'DELETE', `/df/api/sessions/${created.body.id}`);
    const names = [...new Set(steps.flatMap((x) => Object.keys(x)))];
    const createSteps = Object.fromEntries(names.map((n) => [n, distribution(steps.map((x) => x[n] ?? 0))]));
    return { initialJsGzipKiB: assets.js, initialCssGzipKiB: assets.css, devices: total, gridFirstPaintMs, frameToPaintMs, framesPainted: latencies.length, open, apiOpen, createSteps };
  } finally {
    await browser?.close();
    for (const agent of agents) await agent.stop().catch(() => undefined);
    await started.server.stop();
    await started.cleanup();
    await site.close();
  }
}

export function formatWebConsole(r: WebConsoleReport): string {
  const ms = (v: number) => num(v, 1);
  return (
    `Web console — Debian's Chromium (playwright-core) at 1280×800 against the started server\n\n` +
    table(
      ['figure', 'p50', 'p99', 'max', 'samples'],
      [
        [`initial JavaScript, gzipped (index.html's scripts)`, `${num(r.initialJsGzipKiB, 1)} KiB`, '', '', ''],
        [`initial CSS, gzipped`, `${num(r.initialCssGzipKiB, 1)} KiB`, '', '', ''],
        [`first painted device grid, ${num(r.devices)} devices, ms`, ms(r.gridFirstPaintMs.p50), ms(r.gridFirstPaintMs.p99), ms(r.gridFirstPaintMs.max), String(r.gridFirstPaintMs.count)],
        [`live screen: frame at the page's socket → painted, ms`, ms(r.frameToPaintMs.p50), ms(r.frameToPaintMs.p99), ms(r.frameToPaintMs.max), String(r.framesPainted)],
        [`open: click "Start a session" → session created, ms`, ms(r.open.toCreated.p50), ms(r.open.toCreated.p99), ms(r.open.toCreated.max), String(r.open.toCreated.count)],
        [`open: click → viewer socket open, ms`, ms(r.open.toSocketOpen.p50), ms(r.open.toSocketOpen.p99), ms(r.open.toSocketOpen.max), String(r.open.toSocketOpen.count)],
        [`open: click → first frame at the page's socket, ms`, ms(r.open.toFirstFrame.p50), ms(r.open.toFirstFrame.p99), ms(r.open.toFirstFrame.max), String(r.open.toFirstFrame.count)],
        [`open: click → first frame painted, ms`, ms(r.open.toFirstPaint.p50), ms(r.open.toFirstPaint.p99), ms(r.open.toFirstPaint.max), String(r.open.toFirstPaint.count)],
        [`baseline, API alone: POST /df/api/sessions answered, ms`, ms(r.apiOpen.toCreated.p50), ms(r.apiOpen.toCreated.p99), ms(r.apiOpen.toCreated.max), String(r.apiOpen.toCreated.count)],
        [`baseline, API alone: POST → first frame at its socket, ms`, ms(r.apiOpen.toFirstFrame.p50), ms(r.apiOpen.toFirstFrame.p99), ms(r.apiOpen.toFirstFrame.max), String(r.apiOpen.toFirstFrame.count)],
        ...Object.entries(r.createSteps).map(([step, d]) => [`  POST /df/api/sessions step "${step}" (Server-Timing), ms`, ms(d.p50), ms(d.p99), ms(d.max), String(d.count)]),
      ],
    ) +
    '\n'
  );
}
