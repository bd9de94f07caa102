import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { dfDevicesProjection, devicesOfHost } from '#projections/df-devices/index.js';
import { dfSessionsProjection } from '#projections/df-sessions/index.js';
import { ProjectionRunner } from '#projections/runner.js';
import { connectNatsBus, type BusMessage, type MessageBus } from '#shared/bus/index.js';
import { natsAuthorization, natsHostInbox, natsHostUser, natsSiteUser } from '#shared/wire/index.js';
import type { Database } from '#shared/db/index.js';
import type { EventStore } from '#shared/es/index.js';
import { createMemoryKv } from '#shared/kv/index.js';
import { requestDevice, subjects } from '#shared/wire/index.js';
import { followLog, freePort } from '#test/helpers/daemon.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import { DeviceCommands } from '../devices/service.js';
import { HostEnrolments } from './enrolments.js';
import { HostRegistry } from './registry.js';

/**
 * The NATS authorisation the split deployment ships (docs/operations.md), on a real nats-server: a
 * host's own user is enough for the whole agent protocol (hello, heartbeats, its devices' RPCs), and
 * cannot pose as another host, read another host's commands, or read the service's replies; and a
 * site's leaf node link, whatever the site's own users allow, carries only its hosts' subjects.
 */
const POOL = 'nats-authorization-test-pool-token-0123456789';
const SERVICE = { user: 'df-service', password: 'service-secret' };
const HOSTS = [
  { hostId: 'host-a', password: 'secret-a' },
  { hostId: 'host-b', password: 'secret-b' },
];

let dir: string;
let nats: ChildProcess;
/** The other nats-servers a test starts (a hub and a site's leaf node). */
const servers: ChildProcess[] = [];
let port: number;
let db: Database;
let store: EventStore;
let closeStore: () => Promise<void>;
let runner: ProjectionRunner;
const buses: MessageBus[] = [];
/** What the hosts' connections were refused, as the bus reports it. */
const refusals: string[] = [];

const url = (user: string, password: string) => `nats://${user}:${password}@127.0.0.1:${port}`;
const hostBus = async (hostId: string, password: string) => {
  const bus = await connectNatsBus(url(natsHostUser(hostId), password), {
    inboxPrefix: natsHostInbox(hostId),
    requestTimeoutMs: 2_000,
    onError: (err, subject) => refusals.push(`${hostId} ${subject}: ${(err as Error).message}`),
  });
  buses.push(bus);
  return bus;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nats-auth-'));
  writeFileSync(join(dir, 'nats.conf'), `listen: 127.0.0.1:-1\n${natsAuthorization(SERVICE, HOSTS)}`);
  nats = spawn('nats-server', ['-c', join(dir, 'nats.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  port = await new Promise<number>((resolve, reject) => {
    let log = '';
    nats.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /Listening for client connections on [\d.]+:(\d+)/.exec(log);
      if (m) resolve(Number(m[1]));
    });
    nats.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${log}`)));
  });
  ({ db, store, close: closeStore } = await openPgliteStore());
  runner = new ProjectionRunner({ store, db, projections: [dfDevicesProjection, dfSessionsProjection], idlePollMs: 50 });
  await runner.start();
}, 60_000);

afterAll(async () => {
  for (const bus of buses) await bus.close().catch(() => undefined);
  await runner?.stop();
  await closeStore?.();
  for (const child of [nats, ...servers]) {
    if (!child || child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Messages a subscription received, and a promise for the next one matching. */
function collect(bus: MessageBus, subject: string) {
  const seen: BusMessage[] = [];
  const waiters: { match: (m: BusMessage) => boolean; resolve: (m: BusMessage) => void }[] = [];
  const subscribed = bus.subscribe(subject, (m) => {
    seen.push(m);
    for (const w of [...waiters]) if (w.match(m)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(m));
  });
  return {
    seen,
    subscribed,
    next: (match: (m: BusMessage) => boolean) =>
      new Promise<BusMessage>((resolve) => {
        const found = seen.find(match);
        if (found) resolve(found);
        else waiters.push({ match, resolve });
      }),
  };
}

describe('NATS authorisation of device hosts', () => {
  it("lets a host's own user run the whole agent protocol: hello, heartbeats and its devices' RPCs", async () => {
    const service = await connectNatsBus(url(SERVICE.user, SERVICE.password));
    buses.push(service);
    const registry = new HostRegistry({
      bus: service,
      kv: createMemoryKv(),
      db,
      devices: new DeviceCommands(store),
      sessions: { endForDevice: async () => {}, releaseStale: async () => {}, isOpen: async () => false },
      enrolments: new HostEnrolments({ store, sharedPoolToken: POOL }),
      logger: pino({ level: 'silent' }),
      hostTimeoutMs: 5_000,
      clock: { now: () => new Date() },
    });
    await registry.start();
    const agent = new AgentHost({
      bus: await hostBus('host-a', 'secret-a'),
      logger: pino({ level: 'silent' }),
      config: loadAgentConfig({ value: { hostId: 'host-a', hostToken: POOL, heartbeatMs: 100, appium: { enabled: false }, devices: [{ provider: 'simulated', name: 'A1' }] } }),
    });
    await agent.start();
    try {
      await vi.waitFor(async () => expect((await devicesOfHost(db, 'host-a')).map((d) => d.status)).toEqual(['available']), { timeout: 10_000, interval: 50 });
      expect(agent.announced).toBe(true);
      // The service asks a device something; the host answers on the service's reply subject.
      const [deviceId] = agent.deviceIds();
      const shot = await requestDevice(service, { hostId: 'host-a', deviceId: deviceId!, sessionId: 'none' }, { op: 'prepare' }, { timeoutMs: 5_000 });
      expect(shot).toBeTruthy();
    } finally {
      await agent.stop();
      await registry.stop();
    }
  });

  it('refuses a host posing as another host, reading its commands, or reading the service inbox', async () => {
    const service = await connectNatsBus(url(SERVICE.user, SERVICE.password));
    buses.push(service);
    const a = await hostBus('host-a', 'secret-a');
    const b = await hostBus('host-b', 'secret-b');

    // Posing: A publishes B's hello; the service receives A's own message sent after it, but never B's.
    const hellos = collect(service, 'df.agent.*.hello');
    await hellos.subscribed;
    await a.publish(subjects.hello('host-b'), new TextEncoder().encode('forged'));
    await a.publish(subjects.hello('host-a'), new TextEncoder().encode('own'));
    await hellos.next((m) => m.subject === subjects.hello('host-a'));
    expect(hellos.seen.map((m) => m.subject)).toEqual([subjects.hello('host-a')]);

    // Reading: A subscribes to B's device commands and to the service's inbox; the service sends B a
    // command and A a marker after it. A receives the marker and nothing else.
    const snooped = collect(a, 'df.agent.host-b.>');
    const inbox = collect(a, '_INBOX.>');
    const own = collect(a, 'df.agent.host-a.>');
    const bGets = collect(b, 'df.agent.host-b.>');
    await Promise.all([snooped.subscribed.catch(() => undefined), inbox.subscribed.catch(() => undefined), own.subscribed, bGets.subscribed]);
    await service.publish(subjects.rpc('host-b', 'device-1'), new TextEncoder().encode('for b only'));
    await service.publish('_INBOX.service-reply', new TextEncoder().encode('a reply'));
    await service.publish(subjects.rpc('host-a', 'device-1'), new TextEncoder().encode('marker'));
    await own.next(() => true);
    await bGets.next(() => true);
    expect(snooped.seen).toEqual([]);
    expect(inbox.seen).toEqual([]);
    expect(refusals).toEqual(
      expect.arrayContaining([expect.stringMatching(/^host-a df\.agent\.host-b\.>: Permissions Violation for Subscription/), expect.stringMatching(/^host-a _INBOX\.>: Permissions Violation for Subscription/)]),
    );

    // The configuration the deployment ships is valid for this nats-server.
    const shipped = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const check = spawn('nats-server', ['-c', 'deploy/nats/nats-server.conf', '-t'], { env: { ...process.env, NATS_SERVICE_PASSWORD: 'x' } });
      let out = '';
      check.stderr.on('data', (c: Buffer) => (out += c.toString()));
      check.stdout.on('data', (c: Buffer) => (out += c.toString()));
      check.on('exit', (code) => resolve({ code, out }));
    });
    expect(shipped, shipped.out).toMatchObject({ code: 0 });

    // A wrong password is no connection at all.
    await expect(connectNatsBus(url(natsHostUser('host-a'), 'wrong'), { inboxPrefix: natsHostInbox('host-a') })).rejects.toThrow(/Authorization/i);
  });

  it("holds a site's leaf node link to its hosts' subjects, whatever the site's own users may do", async () => {
    // The hub: the service's user and site S's leaf node user, for host A only.
    const leafPort = await freePort();
    writeFileSync(
      join(dir, 'hub.conf'),
      `listen: 127.0.0.1:-1\nleafnodes { listen: 127.0.0.1:${leafPort} }\n${natsAuthorization(SERVICE, [], [{ site: 's', password: 'site-secret', hostIds: ['host-a'] }])}`,
    );
    const hub = spawn('nats-server', ['-c', join(dir, 'hub.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    servers.push(hub);
    const hubPort = Number((await followLog(hub).next(/Listening for client connections on [\d.]+:(\d+)/))[1]);
    // The site: a user who may do anything there (a site whose own users are wrong), linked as site S.
    writeFileSync(
      join(dir, 'site.conf'),
      `listen: 127.0.0.1:-1\nleafnodes { remotes = [ { url: "nats://${natsSiteUser('s')}:site-secret@127.0.0.1:${leafPort}" } ] }\nauthorization { users = [ { user: "anything", password: "x" } ] }\n`,
    );
    const site = spawn('nats-server', ['-c', join(dir, 'site.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    servers.push(site);
    const siteLog = followLog(site);
    const sitePort = Number((await siteLog.next(/Listening for client connections on [\d.]+:(\d+)/))[1]);
    await siteLog.next(/Leafnode connection created/);
    const service = await connectNatsBus(`nats://${SERVICE.user}:${SERVICE.password}@127.0.0.1:${hubPort}`);
    const anything = await connectNatsBus(`nats://anything:x@127.0.0.1:${sitePort}`);
    buses.push(service, anything);
    const bytes = (text: string) => new TextEncoder().encode(text);

    // What the site may send: host A's hello reaches the service, host B's never does. Host A's is
    // sent until one arrives (the service's interest crosses the link), then B's and A's again.
    const hellos = collect(service, 'df.agent.*.hello');
    await hellos.subscribed;
    await vi.waitFor(async () => {
      await anything.publish(subjects.hello('host-a'), bytes('a'));
      expect(hellos.seen.length).toBeGreaterThan(0);
    }, { timeout: 10_000, interval: 100 });
    await anything.publish(subjects.hello('host-b'), bytes('forged'));
    await anything.publish(subjects.hello('host-a'), bytes('after'));
    await hellos.next((m) => new TextDecoder().decode(m.data) === 'after');
    expect(new Set(hellos.seen.map((m) => m.subject))).toEqual(new Set([subjects.hello('host-a')]));

    // What the site may read: host A's commands, not host B's, nor the service's inbox.
    const read = collect(anything, '>');
    await read.subscribed;
    await vi.waitFor(async () => {
      await service.publish(subjects.rpc('host-a', 'device-1'), bytes('a'));
      expect(read.seen.length).toBeGreaterThan(0);
    }, { timeout: 10_000, interval: 100 });
    await service.publish(subjects.rpc('host-b', 'device-1'), bytes('for b only'));
    await service.publish('_INBOX.service-reply', bytes('a reply'));
    await service.publish(subjects.rpc('host-a', 'device-1'), bytes('after'));
    await read.next((m) => new TextDecoder().decode(m.data) === 'after');
    expect(new Set(read.seen.map((m) => m.subject))).toEqual(new Set([subjects.rpc('host-a', 'device-1')]));
  });
});
