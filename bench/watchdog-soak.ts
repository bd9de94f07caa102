/*
 * `npx tsx bench/watchdog-soak.ts -- [--minutes 30] [--devices 20] [--period-ms 2000]`: the busy-device
 * watchdog under random client deaths. The server (embedded database) with a device host on its bus
 * holding `--devices` fake WebDriver devices; as many clients as devices, each in a loop: open a
 * WebDriver session or a session with a viewer socket, send a few commands with pauses shorter than the
 * watchdog's grace, then either end cleanly or die (vanish without DELETE, or drop the viewer socket).
 * Every second the soak counts, from the device read model, the devices busy with a session whose
 * client is dead, and how long each has been so; a device busy for a dead client for longer than three
 * periods plus the time a session's end takes (`--slack-ms`, 5 s) is a violation. Prints a line every
 * minute and a summary, and writes bench/results/watchdog-soak.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import pino from 'pino';
import { WebSocket } from 'ws';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { FakeWebDriverProvider } from '#agent/appium/fake-provider.js';
import { busyDevices } from '#projections/df-devices/index.js';
import { enrolHost } from '#test/helpers/df-farm.js';
import { signUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer } from '#test/helpers/server.js';

const numberArg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = numberArg('minutes', 30);
const DEVICES = numberArg('devices', 20);
const PERIOD_MS = numberArg('period-ms', 2_000);
const SLACK_MS = numberArg('slack-ms', 5_000);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const random = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

/** Each session a client opened: when its client died (null while alive or after a clean end). */
const sessions = new Map<string, { diedAt: number | null; via: 'webdriver' | 'viewer' }>();
const tally = { opened: 0, cleanEnds: 0, deaths: 0, refused: 0, violations: 0, worstBusyAfterDeathMs: 0, samples: 0, deadBusyAtEnd: 0 };

async function main() {
  const server = await startTestServer({ AGENT_ENABLED: 'false', DF_WATCHDOG_PERIOD: `${PERIOD_MS}ms`, DF_WD_QUEUE_TIMEOUT: '5s' });
  const company = await signUpCompany(server.url, 'soak');
  const token = company.token;
  const config = loadAgentConfig({ value: { hostToken: await enrolHost(server.url, token, 'soak'), heartbeatMs: 1_000, devices: [] } });
  const agent = new AgentHost({
    bus: server.process.platform.bus,
    config,
    logger: pino({ level: 'silent' }),
    providers: [new FakeWebDriverProvider({ hostId: config.hostId, devices: Array.from({ length: DEVICES }, (_, i) => ({ name: `Soak ${i + 1}` })) })],
  });
  await agent.start();
  for (;;) {
    const list = (await http(server.url, 'GET', '/df/api/devices?size=100', { token })).body;
    if (list.totalElements === DEVICES) break;
    await pause(200);
  }
  const until = Date.now() + MINUTES * 60_000;
  const clients = Array.from({ length: DEVICES }, () => client(server.url, token, until));
  const counter = count(server.process.platform.db, until);
  await Promise.all([...clients, counter]);
  await agent.stop();
  await server.stop();
  const summary = { minutes: MINUTES, devices: DEVICES, periodMs: PERIOD_MS, slackMs: SLACK_MS, ...tally };
  console.log(JSON.stringify(summary));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/watchdog-soak.json', JSON.stringify(summary, null, 2));
}

/** Every second: devices busy for a dead client, and for how long. */
async function count(db: Parameters<typeof busyDevices>[0], until: number): Promise<void> {
  let nextLine = Date.now() + 60_000;
  while (Date.now() < until + 3 * PERIOD_MS + SLACK_MS) {
    const now = Date.now();
    tally.samples++;
    let deadBusy = 0;
    for (const { sessionId } of await busyDevices(db)) {
      const diedAt = sessions.get(sessionId)?.diedAt;
      if (diedAt == null) continue;
      deadBusy++;
      tally.worstBusyAfterDeathMs = Math.max(tally.worstBusyAfterDeathMs, now - diedAt);
      if (now - diedAt > 3 * PERIOD_MS + SLACK_MS) tally.violations++;
    }
    tally.deadBusyAtEnd = deadBusy;
    if (now > nextLine) {
      nextLine += 60_000;
      console.log(`${new Date().toISOString()} opened ${tally.opened}, clean ${tally.cleanEnds}, deaths ${tally.deaths}, busy for a dead client now ${deadBusy}, worst ${tally.worstBusyAfterDeathMs} ms, violations ${tally.violations}`);
    }
    await pause(1_000);
  }
}

/** One client: sessions one after another until `until`, each ending cleanly or by the client's death. */
async function client(base: string, token: string, until: number): Promise<void> {
  while (Date.now() < until) {
    const dies = Math.random() < 0.5;
    try {
      if (Math.random() < 0.5) await webdriverClient(base, token, dies);
      else await viewerClient(base, token, dies);
    } catch {
      tally.refused++;
      await pause(500);
    }
  }
}

async function webdriverClient(base: string, token: string, dies: boolean): Promise<void> {
  const created = await http(base, 'POST', '/df/wd/session', { token, body: { capabilities: { alwaysMatch: { platformName: 'android' } } } });
  if (created.status !== 200) throw new Error('no device');
  const id = created.body.value.sessionId as string;
  sessions.set(id, { diedAt: null, via: 'webdriver' });
  tally.opened++;
  for (let i = random(1, 6); i > 0; i--) {
    await http(base, 'GET', `/df/wd/session/${id}/url`, { token });
    await pause(random(100, PERIOD_MS));
  }
  if (dies) {
    sessions.get(id)!.diedAt = Date.now();
    tally.deaths++;
    return;
  }
  await http(base, 'DELETE', `/df/wd/session/${id}`, { token });
  tally.cleanEnds++;
}

async function viewerClient(base: string, token: string, dies: boolean): Promise<void> {
  const free = (await http(base, 'GET', '/df/api/devices?size=100', { token })).body.content.filter((d: { status: string }) => d.status === 'available');
  if (free.length === 0) throw new Error('no device');
  const created = await http(base, 'POST', '/df/api/sessions', { token, body: { deviceId: free[random(0, free.length)].id, name: 'soak viewer' } });
  if (created.status !== 201) throw new Error('refused');
  const id = created.body.id as string;
  sessions.set(id, { diedAt: null, via: 'viewer' });
  tally.opened++;
  const socket = new WebSocket(`${base.replace('http', 'ws')}/df/ws/sessions/${id}?access_token=${token}`);
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('message', resolve));
  // Watched but silent for longer than the grace: the viewer alone must keep it.
  await pause(random(PERIOD_MS, 4 * PERIOD_MS));
  if (dies) {
    socket.terminate();
    sessions.get(id)!.diedAt = Date.now();
    tally.deaths++;
    return;
  }
  socket.close();
  await http(base, 'DELETE', `/df/api/sessions/${id}`, { token });
  tally.cleanEnds++;
}

await main();
process.exit(tally.violations === 0 ? 0 : 1);
