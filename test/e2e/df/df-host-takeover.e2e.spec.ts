import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { connectNatsBus } from '#shared/bus/index.js';
import { natsAuthorization, natsHostInbox, natsHostUser } from '#shared/wire/index.js';
import { followLog } from '#test/helpers/daemon.js';
import { eventually } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { errorCode, http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A device belongs to the host that registered it. Company B enrols a host of its own and, with
 * everything its own NATS user may do (its token, its own subjects on a nats-server with per-host
 * users), says hello announcing company A's device ids: the claim is refused for those devices, A
 * keeps them and its session on them, and the refusal is in A's audit history. Moving a device
 * between hosts of one company is an explicit, audited action.
 */
const SERVICE = { user: 'df-service', password: 'service-secret' };
const PASSWORDS = { a: 'host-a-secret', b: 'host-b-secret', a2: 'host-a2-secret' };

let dir: string;
let nats: ChildProcess;
let natsLog: ReturnType<typeof followLog>;
let port: number;
let server: TestServer;
let a: SignedUpCompany;
let b: SignedUpCompany;
const hosts = { a: '', b: '', a2: '' };
const tokens = { a: '', b: '', a2: '' };
const agents: AgentHost[] = [];

const df = (who: SignedUpCompany, method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: who.token, ...(body !== undefined ? { body } : {}) });
const deviceNames = async (who: SignedUpCompany): Promise<string[]> => {
  const r = await df(who, 'GET', '/devices?size=100');
  expect(r.status).toBe(200);
  return (r.body.content as { name: string }[]).map((d) => d.name).sort();
};

function writeConfig(users: { hostId: string; password: string }[]): void {
  writeFileSync(join(dir, 'nats.conf'), `listen: 127.0.0.1:${port || -1}\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n${natsAuthorization(SERVICE, users)}`);
}

/** An agent connected as its host's own NATS user, with simulated devices (ids given or derived). */
async function startAgent(key: keyof typeof hosts, devices: { name: string; id?: string }[]): Promise<AgentHost> {
  const bus = await connectNatsBus(`nats://${natsHostUser(hosts[key])}:${PASSWORDS[key]}@127.0.0.1:${port}`, { inboxPrefix: natsHostInbox(hosts[key]), requestTimeoutMs: 2_000 });
  const agent = new AgentHost({
    bus,
    logger: pino({ level: 'silent' }),
    config: loadAgentConfig({ value: { hostToken: tokens[key], nodeName: `node-${key}`, heartbeatMs: 200, appium: { enabled: false }, devices: devices.map((d) => ({ provider: 'simulated' as const, ...d })) } }),
  });
  agents.push(agent);
  await agent.start();
  return agent;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'df-takeover-'));
  port = 0;
  writeConfig([]);
  nats = spawn('nats-server', ['-c', join(dir, 'nats.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  natsLog = followLog(nats);
  port = Number((await natsLog.next(/Listening for client connections on [\d.]+:(\d+)/))[1]);
  server = await startTestServer({ NATS_URL: `nats://${SERVICE.user}:${SERVICE.password}@127.0.0.1:${port}`, AGENT_ENABLED: 'false', DF_HOST_TIMEOUT: '3s' });
  a = await signUpCompany(server.url, 'victim');
  b = await signUpCompany(server.url, 'taker');
  for (const [key, who] of [['a', a], ['b', b], ['a2', a]] as const) {
    const enrolled = await df(who, 'POST', '/hosts', { name: `host ${key}` });
    expect(enrolled.status).toBe(201);
    hosts[key] = enrolled.body.id;
    tokens[key] = enrolled.body.token;
  }
  // The hosts' users are added as an operator would: the configuration rewritten, NATS reloaded.
  writeConfig((Object.keys(hosts) as (keyof typeof hosts)[]).map((k) => ({ hostId: hosts[k], password: PASSWORDS[k] })));
  // nats-server applies a reload in the background and says so when done (or why it could not).
  const reloaded = natsLog.next(/Reloaded server configuration|Failed to reload server configuration.*/);
  nats.kill('SIGHUP');
  expect((await reloaded)[0]).toBe('Reloaded server configuration');
  const probe = await connectNatsBus(`nats://${natsHostUser(hosts.a)}:${PASSWORDS.a}@127.0.0.1:${port}`, { inboxPrefix: natsHostInbox(hosts.a) });
  await probe.close();
}, 120_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop().catch(() => undefined);
  await server?.stop();
  nats?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a host speaks only for its own devices', { timeout: 120_000 }, () => {
  it("refuses another company's host announcing A's device ids: A keeps its devices and session, B lists none of them, A's audit shows the refusal", async () => {
    const agentA = await startAgent('a', [{ name: 'A phone 1' }, { name: 'A phone 2' }]);
    await eventually(async () => ((await deviceNames(a)).length === 2 ? true : undefined), { what: "A's devices" });
    const [first, second] = agentA.deviceIds();
    const open = await df(a, 'POST', '/sessions', { deviceId: first });
    expect(open.status).toBe(201);
    const sessionId = open.body.id as string;
    await eventually(async () => ((await df(a, 'GET', `/sessions/${sessionId}`)).body.status === 'active' ? true : undefined), { what: "A's session active" });

    // B's host, on its own NATS user, announces A's two ids under names it chose, and a device of its own.
    const agentB = await startAgent('b', [{ name: 'B took this', id: first }, { name: 'B took that', id: second }, { name: 'B own phone' }]);
    await eventually(async () => ((await deviceNames(b)).includes('B own phone') ? true : undefined), { what: "B's own device" });
    // The service answered B's hello (its device is listed); the agent counts itself announced once that answer is in.
    await eventually(async () => (agentB.announced ? true : undefined), { what: "B's host announced" });
    // Every claim on A's ids by B's host has been decided (whatever it was) and read into the read models.
    const store = server.process.platform.store;
    const decided = await eventually(async () => {
      const events = await store.readAll({ filter: { eventTypes: ['DeviceConnected', 'DeviceClaimRefused'] } });
      const byB = events.filter((e) => e.metadata.actorId === `agent:${hosts.b}` && [first, second].includes((e.payload as { deviceId: string }).deviceId));
      return byB.length >= 2 ? byB : undefined;
    }, { what: "the claims of B's host decided" });
    await server.process.platform.readModels.waitFor(decided.at(-1)!.position);

    expect(await deviceNames(a)).toEqual(['A phone 1', 'A phone 2']);
    expect(await deviceNames(b)).toEqual(['B own phone']);
    expect(decided.map((e) => e.type)).toEqual(['DeviceClaimRefused', 'DeviceClaimRefused']);
    expect((await df(a, 'GET', `/devices/${second}`)).body).toMatchObject({ name: 'A phone 2', nodeName: 'node-a', status: 'available' });
    expect(errorCode(await df(b, 'GET', `/devices/${second}`))).toBe('NOT_FOUND');
    expect(errorCode(await df(b, 'POST', '/sessions', { deviceId: second }))).toBe('NOT_FOUND');

    // A's open session is untouched and still reaches A's host; a new one on A's other device too.
    expect((await df(a, 'GET', `/sessions/${sessionId}`)).body.status).toBe('active');
    expect((await df(a, 'POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 1, y: 1 })).status).toBe(200);
    const tree = await agentA.driverOf(first!)!.uiTree();
    expect(tree.root.children.map((c) => c.name)).toEqual([JSON.stringify({ action: 'tap', x: 1, y: 1 })]);
    const another = await df(a, 'POST', '/sessions', { deviceId: second });
    expect(another.status).toBe(201);
    await eventually(async () => ((await df(a, 'GET', `/sessions/${another.body.id}`)).body.status === 'active' ? true : undefined), { what: 'the second session active' });
    expect((await df(a, 'POST', `/sessions/${another.body.id}/device/control`, { action: 'home' })).status).toBe(200);
    expect((await agentA.driverOf(second!)!.uiTree()).root.children.map((c) => c.name)).toEqual([JSON.stringify({ action: 'home' })]);

    // The refusal is in A's audit history, naming both hosts; B's history has nothing of A's devices.
    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', `/api/v1/audit/events?deviceId=${second}&size=50`, { token: a.token });
      return (r.body.content as { eventType: string }[] | undefined)?.find((e) => e.eventType === 'DeviceClaimRefused');
    }, { what: 'the refusal in the audit history' });
    expect(audit).toMatchObject({ resourceType: 'device', resourceId: second, actorName: `agent:${hosts.b}`, payload: { hostId: hosts.a, claimedByHostId: hosts.b } });
    const bAudit = await http(server.url, 'GET', `/api/v1/audit/events?deviceId=${second}`, { token: b.token });
    expect(bAudit.body.content).toEqual([]);

    // Announcing again (B's agent restarts) records nothing more: one refusal per claiming host.
    await agentB.stop();
    const again = await startAgent('b', [{ name: 'B took this', id: first }, { name: 'B took that', id: second }, { name: 'B own phone' }]);
    // The goodbye took B's device offline; the second hello's reconciliation brings it back after its claims.
    await eventually(async () => ((await store.readStream(`device-host-${hosts.b}`)).some((e) => e.type === 'HostDevicesReconnected') ? true : undefined), { what: "B's second hello reconciled" });
    await eventually(async () => (again.announced ? true : undefined), { what: "B's restarted host announced" });
    const refusals = await store.readAll({ filter: { eventTypes: ['DeviceClaimRefused'] } });
    expect(refusals.filter((e) => (e.payload as { deviceId: string }).deviceId === second)).toHaveLength(1);
    await df(a, 'DELETE', `/sessions/${sessionId}`);
    await df(a, 'DELETE', `/sessions/${another.body.id}`);
  });

  it("moves a device between one company's hosts only by an explicit, audited action; another company's device or host is 404", async () => {
    const source = agents.find((x) => x.hostId === hosts.a)!;
    const [, second] = source.deviceIds();
    // A's second host also has that device (an explicit id in its configuration): refused until moved.
    const target = await startAgent('a2', [{ name: 'moved phone', id: second }]);
    await eventually(async () => (target.announced ? true : undefined), { what: "A's second host" });
    const device = await df(a, 'GET', `/devices/${second}`);
    expect(device.body).toMatchObject({ nodeName: 'node-a' });

    // Another company cannot move it, nor move its own device to A's host; a host or device unknown is 404.
    expect(errorCode(await df(b, 'POST', `/devices/${second}/move`, { hostId: hosts.b }))).toBe('NOT_FOUND');
    const bDevice = (await df(b, 'GET', '/devices?size=10')).body.content[0].id as string;
    expect(errorCode(await df(b, 'POST', `/devices/${bDevice}/move`, { hostId: hosts.a2 }))).toBe('NOT_FOUND');
    expect(errorCode(await df(a, 'POST', `/devices/${second}/move`, { hostId: hosts.b }))).toBe('NOT_FOUND');
    expect((await df(a, 'POST', `/devices/${second}/move`, { hostId: 'no.such host' })).status).toBe(400);

    // A device in a session stays where it is.
    const busy = await df(a, 'POST', '/sessions', { deviceId: second });
    expect(busy.status).toBe(201);
    expect(errorCode(await df(a, 'POST', `/devices/${second}/move`, { hostId: hosts.a2 }))).toBe('DEVICE_BUSY');
    await df(a, 'DELETE', `/sessions/${busy.body.id}`);
    await eventually(async () => ((await df(a, 'GET', `/devices/${second}`)).body.status === 'available' ? true : undefined), { what: 'the device free again' });

    const moved = await df(a, 'POST', `/devices/${second}/move`, { hostId: hosts.a2 });
    expect(moved.status).toBe(200);
    // The new host speaks for it from its next beat on; sessions reach that host.
    await eventually(async () => {
      const d = (await df(a, 'GET', `/devices/${second}`)).body as { nodeName: string; status: string };
      return d.nodeName === 'node-a2' && d.status === 'available' ? d : undefined;
    }, { what: 'the device online on the second host' });
    const session = await df(a, 'POST', '/sessions', { deviceId: second });
    expect(session.status).toBe(201);
    await eventually(async () => ((await df(a, 'GET', `/sessions/${session.body.id}`)).body.status === 'active' ? true : undefined), { what: 'a session on the moved device' });
    expect((await df(a, 'POST', `/sessions/${session.body.id}/device/control`, { action: 'back' })).status).toBe(200);
    expect((await target.driverOf(second!)!.uiTree()).root.children.map((c) => c.name)).toEqual([JSON.stringify({ action: 'back' })]);
    await df(a, 'DELETE', `/sessions/${session.body.id}`);

    const audit = await eventually(async () => {
      const r = await http(server.url, 'GET', `/api/v1/audit/events?deviceId=${second}&resourceType=device&size=50`, { token: a.token });
      return (r.body.content as { eventType: string }[] | undefined)?.find((e) => e.eventType === 'DeviceMoved');
    }, { what: 'the move in the audit history' });
    expect(audit).toMatchObject({ actorId: a.userId, payload: { fromHostId: hosts.a, toHostId: hosts.a2 } });
  });
});
