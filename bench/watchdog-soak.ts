/*
 * `npx tsx bench/watchdog-soak.ts -- [--minutes 30] [--devices 20] [--period-ms 2000] [--fake]`: the
 * busy-device watchdog under random client deaths. `--devices` adbd test devices behind Debian's adb
 * server, attached to the started server's agent as the Android end-to-end specs attach them, WebDriver
 * through the agent's Appium and its UiAutomator2 driver (bench/watchdog-soak-rig.ts; `--fake`: fake
 * WebDriver devices on a device host instead). As many clients as devices, each in a loop: open a
 * WebDriver session (`POST /df/wd/session`) or a session with a viewer socket (`POST /df/api/sessions`,
 * then `/df/ws/sessions/{id}`, as a console tab does), send a few commands (W3C taps; taps over the
 * socket) with pauses shorter than the watchdog's grace, then either end cleanly or die: vanish without
 * `DELETE`, or drop the viewer socket without ending (a closed tab). A viewer also stays silent for
 * longer than the grace before it ends or dies: its open socket alone must keep the session.
 *
 * Every second the soak counts, from the device read model, the devices busy with a session whose
 * client is dead, and how long each has been so; a device busy for a dead client for longer than three
 * periods plus the time a session's end takes (`--slack-ms`, 5 s) is a violation (one per device per
 * second). The count goes on until the limit has passed after the last client's last session. Then it
 * reads how each dead client's session ended (the watchdog's is `abandoned`) and splits the time its
 * device stayed busy into death → end recorded and end → device free. A session the platform ended
 * while its client was alive (the server closed a viewer's socket, a WebDriver command answered 404)
 * is counted apart, with its end reason: a watchdog's `abandoned` there would be a false one. Prints a
 * line every minute and a summary, writes bench/results/watchdog-soak.json, and exits 1 on a violation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { busyDevices } from '#projections/df-devices/index.js';
import { sessionsByIds } from '#projections/df-sessions/index.js';
import { http } from '#test/helpers/server.js';
import { loadAverage, startFakeRig, startPeerRig, type SoakRig } from './watchdog-soak-rig.js';

const numberArg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = numberArg('minutes', 30);
const DEVICES = numberArg('devices', 20);
const PERIOD_MS = numberArg('period-ms', 2_000);
const SLACK_MS = numberArg('slack-ms', 5_000);
const LIMIT_MS = 3 * PERIOD_MS + SLACK_MS;
const FAKE = process.argv.includes('--fake');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** Each session a client opened: when its client died (null while alive or after a clean end), and when the counter first saw its device free after that. */
const sessions = new Map<string, { diedAt: number | null; freedAt: number | null; via: 'webdriver' | 'viewer'; endedUnder?: boolean }>();
const tally = {
  opened: 0,
  openedWebdriver: 0,
  openedViewer: 0,
  cleanEnds: 0,
  deaths: 0,
  /** No device free (the WebDriver queue timed out, no available device for a viewer). */
  refused: 0,
  /** A session's opening or a command that failed otherwise, with the first few messages. */
  failures: 0,
  /** Sessions ended under a client still alive: a viewer's socket closed by the server, a WebDriver command answered 404. */
  endedUnderLiveClient: 0,
  violations: 0,
  worstBusyAfterDeathMs: 0,
  samples: 0,
  deadBusyAtEnd: 0,
};
const failureSamples: string[] = [];

function failed(what: string): void {
  tally.failures++;
  if (failureSamples.length < 10) failureSamples.push(what.slice(0, 300));
}

async function main() {
  const load = { start: loadAverage(), end: [] as number[] };
  const rig = FAKE ? await startFakeRig({ devices: DEVICES, periodMs: PERIOD_MS }) : await startPeerRig({ devices: DEVICES, periodMs: PERIOD_MS });
  console.log(`${new Date().toISOString()} ${DEVICES} ${rig.kind === 'peers' ? 'adbd test devices' : 'fake WebDriver devices'} available; ${MINUTES} min of clients, watchdog period ${PERIOD_MS} ms, limit ${LIMIT_MS} ms`);
  const until = Date.now() + MINUTES * 60_000;
  // The counter goes on until the limit after the last client's last session (a death just before then is watched to the limit too).
  const done = { at: null as number | null };
  const clients = Promise.all(Array.from({ length: DEVICES }, () => client(rig, until))).then(() => void (done.at = Date.now()));
  const counter = count(rig.db, done);
  await Promise.all([clients, counter]);
  const deadEnds = await endsOfDeaths(rig.db);
  const received = rig.received();
  await rig.stop();
  load.end = loadAverage();
  const freed = [...sessions.values()].flatMap((s) => (s.diedAt !== null && s.freedAt !== null ? [s.freedAt - s.diedAt] : []));
  const summary = {
    devices: DEVICES,
    deviceKind: rig.kind,
    minutes: MINUTES,
    periodMs: PERIOD_MS,
    slackMs: SLACK_MS,
    limitMs: LIMIT_MS,
    ...tally,
    freedAfterDeathMs: spread(freed),
    deadEnds,
    received,
    failureSamples,
    loadAverage: load,
  };
  console.log(JSON.stringify(summary));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/watchdog-soak.json', `${JSON.stringify({ finishedAt: new Date().toISOString(), ...summary }, null, 2)}\n`);
}

/** Every second: devices busy for a dead client, and for how long; a dead client's device seen free is noted once. */
async function count(db: SoakRig['db'], done: { at: number | null }): Promise<void> {
  let nextLine = Date.now() + 60_000;
  while (done.at === null || Date.now() < done.at + LIMIT_MS) {
    const now = Date.now();
    tally.samples++;
    let deadBusy = 0;
    const busy = new Set<string>();
    for (const { sessionId } of await busyDevices(db)) {
      busy.add(sessionId);
      const diedAt = sessions.get(sessionId)?.diedAt;
      if (diedAt == null) continue;
      deadBusy++;
      tally.worstBusyAfterDeathMs = Math.max(tally.worstBusyAfterDeathMs, now - diedAt);
      if (now - diedAt > LIMIT_MS) tally.violations++;
    }
    for (const [id, s] of sessions) if (s.diedAt !== null && s.freedAt === null && !busy.has(id)) s.freedAt = now;
    tally.deadBusyAtEnd = deadBusy;
    if (now > nextLine) {
      nextLine += 60_000;
      console.log(`${new Date().toISOString()} opened ${tally.opened}, clean ${tally.cleanEnds}, deaths ${tally.deaths}, refused ${tally.refused}, failures ${tally.failures}, busy for a dead client now ${deadBusy}, worst ${tally.worstBusyAfterDeathMs} ms, violations ${tally.violations}, load ${loadAverage().join(' ')}`);
    }
    await pause(1_000);
  }
}

function track(id: string, via: 'webdriver' | 'viewer') {
  const entry: { diedAt: number | null; freedAt: number | null; via: typeof via; endedUnder?: boolean } = { diedAt: null, freedAt: null, via };
  sessions.set(id, entry);
  tally.opened++;
  if (via === 'webdriver') tally.openedWebdriver++;
  else tally.openedViewer++;
  return entry;
}
/** The platform ended the session while its client was alive; the client stops there (neither a clean end nor a death). */
function endedUnder(entry: { endedUnder?: boolean }, what: string) {
  entry.endedUnder = true;
  tally.endedUnderLiveClient++;
  failed(what);
}
function die(entry: { diedAt: number | null }) {
  entry.diedAt = Date.now();
  tally.deaths++;
}

/** The 50th and 95th percentiles and the largest of some durations (ms), and how many. */
function spread(values: number[]): { count: number; p50: number | null; p95: number | null; max: number | null } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : null);
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? null };
}

/**
 * How the sessions of dead clients ended, by end reason (`open` for one still open), and the two parts
 * of the time their devices stayed busy: from the death to the end recorded (the watchdog's grace and
 * check), and from the end recorded to the device seen free (the end's log collection and release).
 */
async function endsOfDeaths(db: SoakRig['db']) {
  const dead = [...sessions].filter(([, s]) => s.diedAt !== null).map(([id]) => id);
  // And how the sessions ended under a live client ended (the watchdog's would be a false `abandoned`).
  const underLive: Record<string, number> = {};
  for (const record of await sessionsByIds(db, [...sessions].filter(([, s]) => s.endedUnder).map(([id]) => id))) {
    const reason = record.endReason ?? 'open';
    underLive[reason] = (underLive[reason] ?? 0) + 1;
  }
  const reasons: Record<string, number> = {};
  const toEnd: number[] = [];
  const endToFree: number[] = [];
  for (const record of await sessionsByIds(db, dead)) {
    const reason = record.endReason ?? 'open';
    reasons[reason] = (reasons[reason] ?? 0) + 1;
    const s = sessions.get(record.id)!;
    if (!record.endedAt) continue;
    const endedAt = Date.parse(record.endedAt);
    toEnd.push(endedAt - s.diedAt!);
    if (s.freedAt !== null) endToFree.push(s.freedAt - endedAt);
  }
  return { reasons, deathToEndMs: spread(toEnd), endToFreeMs: spread(endToFree), endedUnderLiveClientReasons: underLive };
}

/** One client: sessions one after another until `until`, each ending cleanly or by the client's death. */
async function client(rig: SoakRig, until: number): Promise<void> {
  while (Date.now() < until) {
    const dies = Math.random() < 0.5;
    try {
      if (Math.random() < 0.5) await webdriverClient(rig, dies);
      else await viewerClient(rig, dies);
    } catch (err) {
      if ((err as Error).message === 'no device') tally.refused++;
      else failed((err as Error).message);
      await pause(500);
    }
  }
}

async function webdriverClient(rig: SoakRig, dies: boolean): Promise<void> {
  const created = await http(rig.url, 'POST', '/df/wd/session', { token: rig.token, body: rig.newSession });
  if (created.status !== 200) {
    const value = created.body?.value as { error?: string; message?: string; data?: { code?: string } } | undefined;
    // The queue timed out: every device was busy for as long as the client waits.
    if (/became free within/.test(value?.message ?? '')) throw new Error('no device');
    throw new Error(`webdriver new session ${created.status}: ${value?.error ?? ''} ${value?.message ?? ''}`);
  }
  const id = created.body.value.sessionId as string;
  const entry = track(id, 'webdriver');
  for (let i = random(1, 6); i > 0; i--) {
    const status = await rig.command(id);
    if (status === 404) return endedUnder(entry, `webdriver session ${id}: a command answered 404 (invalid session id)`);
    if (status !== 200) failed(`webdriver command ${status}`);
    await pause(random(100, PERIOD_MS));
  }
  if (dies) return die(entry);
  await http(rig.url, 'DELETE', `/df/wd/session/${id}`, { token: rig.token });
  tally.cleanEnds++;
}

interface Viewer {
  socket: WebSocket;
  tap: () => Promise<void>;
  /** How the server closed the socket (code and reason), or null while it is open or the client closed it. */
  closedByServer: () => string | null;
  /** Closes (or with `terminate`, drops) the socket from the client's side. */
  leave: (how: 'close' | 'terminate') => void;
}

/** A viewer's socket: resolves with the first message (`hello`), and sends taps each awaited until acknowledged (or the socket's close). */
function viewerSocket(rig: SoakRig, sessionId: string): Promise<Viewer> {
  const socket = new WebSocket(`${rig.url.replace('http', 'ws')}/df/ws/sessions/${sessionId}?access_token=${rig.token}`);
  const waiting = new Map<string, (answer: { type: string; message?: string }) => void>();
  let seq = 0;
  let leaving = false;
  let serverClose: string | null = null;
  socket.on('error', () => undefined);
  socket.on('close', (code, reason) => {
    if (!leaving) serverClose = `${code} ${reason.toString()}`;
    for (const answer of waiting.values()) answer({ type: 'closed', message: `the socket closed (${code} ${reason.toString()})` });
    waiting.clear();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the viewer socket did not say hello within 30 s')), 30_000);
    socket.once('close', () => reject(new Error('the viewer socket closed before its hello')));
    socket.on('message', (data, binary) => {
      if (binary) return;
      const message = JSON.parse(data.toString()) as { type: string; id?: string; message?: string };
      if (message.type === 'hello') {
        clearTimeout(timer);
        resolve({
          socket,
          closedByServer: () => serverClose,
          leave: (how) => {
            leaving = true;
            if (how === 'close') socket.close();
            else socket.terminate();
          },
          tap: () =>
            new Promise<void>((done, fail) => {
              const id = `tap-${++seq}`;
              const deadline = setTimeout(() => fail(new Error('a tap was not acknowledged within 30 s')), 30_000);
              waiting.set(id, (answer) => {
                clearTimeout(deadline);
                if (answer.type === 'ack') done();
                else fail(new Error(`a tap was refused: ${answer.message ?? answer.type}`));
              });
              socket.send(JSON.stringify({ type: 'input', id, action: { action: 'tap', x: random(0, 360), y: random(0, 640) } }));
            }),
        });
      }
      if ((message.type === 'ack' || message.type === 'error') && message.id) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
  });
}

async function viewerClient(rig: SoakRig, dies: boolean): Promise<void> {
  const free = (await http(rig.url, 'GET', '/df/api/devices?size=100', { token: rig.token })).body.content.filter((d: { status: string }) => d.status === 'available');
  if (free.length === 0) throw new Error('no device');
  const created = await http(rig.url, 'POST', '/df/api/sessions', { token: rig.token, body: { deviceId: free[random(0, free.length)].id, name: 'soak viewer' } });
  // Another client took the device between the list and the request.
  if (created.status === 409) throw new Error('no device');
  if (created.status !== 201) throw new Error(`session ${created.status}: ${created.body?.code ?? ''} ${created.body?.message ?? ''}`);
  const id = created.body.id as string;
  const entry = track(id, 'viewer');
  let viewer: Viewer;
  try {
    viewer = await viewerSocket(rig, id);
  } catch (err) {
    // No socket: nothing holds the session, so the client ends it.
    await http(rig.url, 'DELETE', `/df/api/sessions/${id}`, { token: rig.token });
    tally.cleanEnds++;
    throw err;
  }
  if (rig.viewerTaps) {
    for (let i = random(1, 6); i > 0 && !viewer.closedByServer(); i--) {
      await viewer.tap().catch((err: unknown) => viewer.closedByServer() || failed((err as Error).message));
      await pause(random(100, PERIOD_MS));
    }
  }
  // Watched but silent for longer than the grace: the viewer alone must keep it.
  if (!viewer.closedByServer()) await pause(random(PERIOD_MS, 4 * PERIOD_MS));
  const closed = viewer.closedByServer();
  if (closed) return endedUnder(entry, `viewer session ${id}: the server closed the socket (${closed})`);
  if (dies) {
    viewer.leave('terminate');
    return die(entry);
  }
  viewer.leave('close');
  await http(rig.url, 'DELETE', `/df/api/sessions/${id}`, { token: rig.token });
  tally.cleanEnds++;
}

await main();
process.exit(tally.violations === 0 ? 0 : 1);
