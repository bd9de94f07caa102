import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { connectNatsBus, type MessageBus } from '#shared/bus/index.js';
import { natsAuthorization, natsHostInbox, natsHostUser, natsHostUserEntry, natsSiteUser } from '#shared/wire/index.js';
import { NATS_SERVER, followLog, freePort } from '#test/helpers/daemon.js';
import { eventually } from '#test/helpers/df-farm.js';
import { testEnv } from '#test/helpers/env.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { createTestDatabase } from '#test/helpers/postgres.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A host in another site, through a NATS leaf node (docs/operations.md, "Sites behind a NATS leaf
 * node"). The hub runs the shipped `deploy/nats/leafnodes.conf`, site B's nats-server the shipped
 * `deploy/nats/site/nats-server.conf` (their addresses and certificate paths the test's own; TLS on the
 * link as in production, with a certificate made here), the platform runs on PostgreSQL against the
 * hub. Host A connects to the hub, host B to its site's leaf node, each as its own NATS user. Between
 * the site and the hub, a TCP relay stands for the WAN link: cutting it takes B's devices offline (and
 * ends B's session: `host-lost`) while A's stay; mending it brings the same devices back, with the
 * session's timeline and screenshot intact.
 */
const SERVICE = { user: 'df-service', password: 'service-secret' };
const SITE = { site: 'office-b', password: 'site-b-secret' };
const PASSWORDS = { a: 'host-a-secret', b: 'host-b-secret' };
const HOST_TIMEOUT = '3s';

let dir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let hub: ChildProcess;
let hubLog: ReturnType<typeof followLog>;
let hubPort: number;
let site: ChildProcess;
let siteLog: ReturnType<typeof followLog>;
let sitePort: number;
let link: Relay;
let server: TestServer;
let company: SignedUpCompany;
const hosts = { a: '', b: '' };
const tokens = { a: '', b: '' };
const agents: { a?: AgentHost; b?: AgentHost } = {};
const buses: MessageBus[] = [];

interface Device {
  id: string;
  name: string;
  status: string;
  nodeName: string;
}
const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token: company.token, ...(body !== undefined ? { body } : {}) });
const devices = async (): Promise<Device[]> => {
  const r = await df('GET', '/devices?size=100&sortBy=name');
  expect(r.status).toBe(200);
  return r.body.content as Device[];
};
/** Waits until the devices of `nodeName` are `count` and all `status`; answers every device listed then. */
const untilNode = (nodeName: string, count: number, status: string) =>
  eventually(
    async () => {
      const all = await devices();
      const on = all.filter((d) => d.nodeName === nodeName);
      return on.length === count && on.every((d) => d.status === status) ? all : undefined;
    },
    { what: `${count} devices of ${nodeName} ${status}`, timeoutMs: 20_000 },
  );

/** A TCP relay on a port of its own to `target`: `cut()` closes every connection through it and refuses new ones; `mend()` lets them through again; `close()` gives the port back. */
interface Relay {
  port: number;
  mend(): Promise<void>;
  cut(): Promise<void>;
  close(): Promise<void>;
}
async function relay(target: number): Promise<Relay> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  // The port stays ours while the link is cut (closing it would let a file running beside this one take
  // it before the mend): cut, every connection is closed at once, as a refused one would be.
  let up = false;
  let listening: Promise<Server> | null = null;
  const serve = (): Promise<Server> =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer((inbound) => {
        if (!up) return void inbound.destroy();
        const outbound = connect(target, '127.0.0.1');
        for (const [from, to] of [[inbound, outbound], [outbound, inbound]] as const) {
          sockets.add(from);
          from.pipe(to);
          from.on('error', () => to.destroy());
          from.on('close', () => (sockets.delete(from), to.destroy()));
        }
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
  return {
    port,
    mend: async () => {
      listening ??= serve();
      await listening;
      up = true;
    },
    cut: async () => {
      up = false;
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      up = false;
      const s = await listening?.catch(() => null);
      const closed = s ? new Promise((resolve) => s.close(resolve)) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** A shipped file of `deploy/nats/`, with what is the test's own (addresses, certificate paths) replaced. */
function shipped(file: string, replace: [string, string][]): string {
  let text = readFileSync(join('deploy/nats', file), 'utf8');
  for (const [from, to] of replace) {
    expect(text, `deploy/nats/${file} names ${from}`).toContain(from);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** The hub's configuration: the service's user, host A's, site B's leaf node, and the shipped leaf node block. */
function writeHubConfig(withHosts: boolean): void {
  const authorization = withHosts ? natsAuthorization(SERVICE, [{ hostId: hosts.a, password: PASSWORDS.a }], [{ ...SITE, hostIds: [hosts.b] }]) : natsAuthorization(SERVICE, []);
  writeFileSync(join(dir, 'hub.conf'), `listen: 127.0.0.1:${hubPort || -1}\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n${authorization}include "leafnodes.conf"\n`);
}

async function startAgent(key: 'a' | 'b', url: string, names: string[]): Promise<AgentHost> {
  const bus = await connectNatsBus(url, { inboxPrefix: natsHostInbox(hosts[key]), requestTimeoutMs: 2_000, reconnectTimeWaitMs: 200 });
  buses.push(bus);
  const agent = new AgentHost({
    bus,
    logger: pino({ level: 'silent' }),
    config: loadAgentConfig({ value: { hostToken: tokens[key], nodeName: `node-${key}`, heartbeatMs: 200, appium: { enabled: false }, devices: names.map((name) => ({ provider: 'simulated' as const, name })) } }),
  });
  agents[key] = agent;
  await agent.start();
  return agent;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'df-site-leaf-'));
  // The hub's leaf node certificate, for the address the site names it by; the site trusts it as its CA.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=nats hub', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'tls.key'), '-out', join(dir, 'tls.crt')], { stdio: 'ignore' });
  // The hub's leaf node port, reached by the site only through the relay (the address the hub advertises).
  const leafPort = await freePort();
  link = await relay(leafPort);
  writeFileSync(
    join(dir, 'leafnodes.conf'),
    shipped('leafnodes.conf', [['0.0.0.0:7422', `127.0.0.1:${leafPort}`], ['nats.example.com:7422', `127.0.0.1:${link.port}`], ['/etc/nats/tls/', `${dir}/`]]),
  );
  hubPort = 0;
  writeHubConfig(false);
  hub = spawn(NATS_SERVER, ['-c', join(dir, 'hub.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  hubLog = followLog(hub);
  hubPort = Number((await hubLog.next(/Listening for client connections on [\d.]+:(\d+)/))[1]);

  database = await createTestDatabase();
  server = await startTestServer({
    DATABASE_URL: database.url,
    REDIS_URL: testEnv.redisUrl,
    REDIS_KEY_PREFIX: `qa-test-${randomBytes(4).toString('hex')}:`,
    NATS_URL: `nats://${SERVICE.user}:${SERVICE.password}@127.0.0.1:${hubPort}`,
    AGENT_ENABLED: 'false',
    DF_HOST_TIMEOUT: HOST_TIMEOUT,
  });
  company = await signUpCompany(server.url, 'sites');
  for (const key of ['a', 'b'] as const) {
    const enrolled = await df('POST', '/hosts', { name: `host ${key}` });
    expect(enrolled.status).toBe(201);
    hosts[key] = enrolled.body.id;
    tokens[key] = enrolled.body.token;
  }
  // The operator adds host A's user and site B's leaf node user to the hub and reloads it.
  writeHubConfig(true);
  const reloaded = hubLog.next(/Reloaded server configuration|Failed to reload server configuration.*/);
  hub.kill('SIGHUP');
  expect((await reloaded)[0]).toBe('Reloaded server configuration');

  // Site B: the shipped site configuration, host B's user, linked to the hub through the relay.
  await link.mend();
  writeFileSync(join(dir, 'site.conf'), shipped('site/nats-server.conf', [['/etc/nats/hub-ca.pem', join(dir, 'tls.crt')]]));
  writeFileSync(join(dir, 'authorization.conf'), `authorization {\n  users = [\n    ${natsHostUserEntry(hosts.b, PASSWORDS.b)}\n  ]\n}\n`);
  sitePort = await freePort();
  site = spawn(NATS_SERVER, ['-c', join(dir, 'site.conf'), '-a', '127.0.0.1', '-p', String(sitePort)], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NATS_HUB_URL: `tls://${natsSiteUser(SITE.site)}:${SITE.password}@127.0.0.1:${link.port}` },
  });
  siteLog = followLog(site);
  await siteLog.next(/Leafnode connection created/);
}, 120_000);

afterAll(async () => {
  for (const agent of Object.values(agents)) await agent.stop().catch(() => undefined);
  for (const bus of buses) await bus.close().catch(() => undefined);
  await server?.stop();
  for (const child of [site, hub]) {
    if (!child || child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
  await link?.close();
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a device host in another site, through a NATS leaf node', { timeout: 120_000 }, () => {
  it("lists the site's devices and opens sessions on them; a cut link takes only that site's devices offline, and mending it brings the same devices back with the session's evidence kept", async () => {
    // The site's server lets in only its hosts' users: not anonymous clients, not the hub's service user.
    await expect(connectNatsBus(`nats://127.0.0.1:${sitePort}`)).rejects.toThrow(/Authorization/i);
    await expect(connectNatsBus(`nats://${SERVICE.user}:${SERVICE.password}@127.0.0.1:${sitePort}`)).rejects.toThrow(/Authorization/i);

    await startAgent('a', `nats://${natsHostUser(hosts.a)}:${PASSWORDS.a}@127.0.0.1:${hubPort}`, ['A phone']);
    const agentB = await startAgent('b', `nats://${natsHostUser(hosts.b)}:${PASSWORDS.b}@127.0.0.1:${sitePort}`, ['B phone 1', 'B phone 2']);
    await untilNode('node-a', 1, 'available');
    const before = await untilNode('node-b', 2, 'available');
    expect(before.map((d) => d.name)).toEqual(['A phone', 'B phone 1', 'B phone 2']);

    // A session on a device of site B: its commands cross the link, and leave evidence.
    const device = before.find((d) => d.name === 'B phone 1')!;
    const open = await df('POST', '/sessions', { deviceId: device.id, name: 'in site B' });
    expect(open.status).toBe(201);
    const sessionId = open.body.id as string;
    await eventually(async () => ((await df('GET', `/sessions/${sessionId}`)).body.status === 'active' ? true : undefined), { what: 'the session active' });
    expect((await df('POST', `/sessions/${sessionId}/device/control`, { action: 'tap', x: 3, y: 4 })).status).toBe(200);
    expect((await agentB.driverOf(device.id)!.uiTree()).root.children.map((c) => c.name)).toEqual([JSON.stringify({ action: 'tap', x: 3, y: 4 })]);
    const shot = await df('GET', `/sessions/${sessionId}/screenshot`);
    expect(shot.status).toBe(200);
    const artifactId = shot.headers.get('x-artifact-id');
    expect(artifactId).toBeTruthy();
    const timeline = async () => ((await df('GET', `/sessions/${sessionId}/activities`)).body.content as { detail: { action?: string } }[]).map((a) => a.detail.action).filter(Boolean);
    const artifacts = async () => ((await df('GET', `/sessions/${sessionId}/artifacts`)).body as { id: string; type: string }[]).map((a) => `${a.type} ${a.id}`);
    expect(await timeline()).toEqual(['tap']);
    await eventually(async () => ((await artifacts()).includes(`screenshot ${artifactId}`) ? true : undefined), { what: 'the screenshot among the artifacts' });

    // The link is cut: site B's devices go offline once the host time-out has passed, A's stay;
    // B's open session ends (its device cannot be reached) and keeps what it recorded.
    const dropped = siteLog.next(/Leafnode connection closed/);
    await link.cut();
    await dropped;
    const during = await untilNode('node-b', 2, 'offline');
    expect(during.filter((d) => d.nodeName === 'node-a').map((d) => d.status)).toEqual(['available']);
    const ended = await eventually(async () => {
      const s = (await df('GET', `/sessions/${sessionId}`)).body as { status: string; endReason: string | null };
      return s.status === 'ended' ? s : undefined;
    }, { what: 'the session ended' });
    expect(ended.endReason).toBe('host-lost');
    expect(agentB.announced).toBe(false);

    // The link is back: the same devices, once each, available again; the site's host released the
    // session the platform ended; the session's timeline and screenshot are still there.
    const linked = siteLog.next(/Leafnode connection created/);
    await link.mend();
    await linked;
    const after = await untilNode('node-b', 2, 'available');
    expect(after.map((d) => [d.id, d.name])).toEqual(before.map((d) => [d.id, d.name]));
    expect(after.every((d) => d.status === 'available')).toBe(true);
    await eventually(async () => (agentB.announced ? true : undefined), { what: 'host B announced again' });
    expect(await timeline()).toEqual(['tap']);
    expect(await artifacts()).toContain(`screenshot ${artifactId}`);
    expect((await df('GET', `/sessions/${sessionId}`)).body).toMatchObject({ status: 'ended', endReason: 'host-lost', name: 'in site B' });

    // And a new session on the same device works across the mended link.
    const again = await df('POST', '/sessions', { deviceId: device.id, name: 'after the cut' });
    expect(again.status).toBe(201);
    await eventually(async () => ((await df('GET', `/sessions/${again.body.id}`)).body.status === 'active' ? true : undefined), { what: 'a session after the cut' });
    expect((await df('POST', `/sessions/${again.body.id}/device/control`, { action: 'home' })).status).toBe(200);
    expect((await agentB.driverOf(device.id)!.uiTree()).root.children.map((c) => c.name)).toEqual([JSON.stringify({ action: 'home' })]);
    expect((await df('DELETE', `/sessions/${again.body.id}`)).status).toBe(200);
  });
});
