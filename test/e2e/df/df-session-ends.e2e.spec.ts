import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import type { DeviceDriver } from '#agent/capabilities.js';
import type { DeviceListener, DeviceProvider } from '#agent/provider.js';
import { SimulatedDevice } from '#agent/simulated/provider.js';
import { sessionStream } from '#events/df/sessions.js';
import type { BusSubscription, MessageBus } from '#shared/bus/index.js';
import { enrolHost, eventually } from '#test/helpers/df-farm.js';
import { signUpCompany, type SignedUpCompany } from '#test/helpers/org-api.js';
import { http, startTestServer, type TestServer } from '#test/helpers/server.js';

/**
 * A session ends because of its device or its creator, not its user: the device leaves its host
 * (`device-disconnected`), breaks (`device-error`), comes back from an agent restart holding no session
 * (`device-reset`), or the request that was preparing it never finished (`prepare-abandoned`). Hosts here
 * run in the test on the server's bus, with devices the test unplugs and breaks.
 */
let server: TestServer;
let a: SignedUpCompany;
let token: string;
const agents: AgentHost[] = [];

/** A simulated device the test can break, as a real one breaks mid-session (its driver tells the worker so). */
type BreakableDevice = SimulatedDevice & { break(reason: string): void };

function device(deviceId: string, name: string): BreakableDevice {
  const simulated = new SimulatedDevice(
    { deviceId, name, platform: 'android', osVersion: '14', model: 'Simulated phone', manufacturer: 'Simulator', type: 'phone', isRealDevice: false, provider: 'simulated', screen: { width: 1080, height: 2400, scale: 1 } },
    0,
  );
  let broken: ((reason: string) => void) | null = null;
  const driver: DeviceDriver = simulated;
  driver.onBroken = (listener) => {
    broken = listener;
  };
  return Object.assign(simulated, { break: (reason: string) => broken?.(reason) });
}

/** Devices the test plugs in at start and unplugs when it says. */
class Bench implements DeviceProvider {
  readonly name = 'simulated';
  private listener: DeviceListener | null = null;
  constructor(readonly devices: BreakableDevice[]) {}
  async start(listener: DeviceListener): Promise<void> {
    this.listener = listener;
    for (const d of this.devices) listener.added(d);
  }
  unplug(deviceId: string): void {
    this.listener?.removed(deviceId);
  }
  async stop(): Promise<void> {}
}

/** The server's bus as an agent that can die sees it: once silenced, it sends nothing (no goodbye) and hears nothing. */
function silenceable(bus: MessageBus): { bus: MessageBus; silence(): Promise<void> } {
  let silent = false;
  const subscriptions: BusSubscription[] = [];
  const wrapped: MessageBus = {
    kind: bus.kind,
    get connected() {
      return bus.connected;
    },
    onConnectionChange: (listener) => bus.onConnectionChange(listener),
    publish: (subject, data, headers) => (silent ? Promise.resolve() : bus.publish(subject, data, headers)),
    subscribe: async (subject, handler, options) => {
      const subscription = await bus.subscribe(subject, handler, options);
      subscriptions.push(subscription);
      return subscription;
    },
    request: (subject, data, options) => (silent ? Promise.reject(new Error('the agent is gone')) : bus.request(subject, data, options)),
    respond: (msg, data, headers) => (silent ? Promise.resolve() : bus.respond(msg, data, headers)),
    publishDurable: (stream, subject, data) => bus.publishDurable(stream, subject, data),
    consumeDurable: (stream, consumer, handler, options) => bus.consumeDurable(stream, consumer, handler, options),
    // The server's bus is the server's to close.
    close: async () => {},
  };
  return {
    bus: wrapped,
    async silence() {
      silent = true;
      for (const s of subscriptions.splice(0)) await s.unsubscribe();
    },
  };
}

async function startAgent(hostToken: string, provider: Bench, bus: MessageBus = server.process.platform.bus): Promise<AgentHost> {
  const agent = new AgentHost({
    bus,
    logger: pino({ level: 'silent' }),
    providers: [provider],
    config: loadAgentConfig({ value: { hostToken, nodeName: 'loss-node', heartbeatMs: 200, appium: { enabled: false }, devices: [] } }),
  });
  agents.push(agent);
  await agent.start();
  return agent;
}

const df = (method: string, path: string, body?: unknown) => http(server.url, method, `/df/api${path}`, { token, ...(body !== undefined ? { body } : {}) });

const availableDevice = (deviceId: string) =>
  eventually(async () => ((await df('GET', `/devices/${deviceId}`)).body.status === 'available' ? true : undefined), { what: `device ${deviceId} available` });

/** Opens a session on the device and answers its id once it is active. */
async function openSession(deviceId: string): Promise<string> {
  const opened = await df('POST', '/sessions', { deviceId });
  expect(opened.status).toBe(201);
  expect(opened.body.status).toBe('active');
  return opened.body.id as string;
}

/** The session once it has ended: its status and end reason as the read model recorded them. */
const ended = (sessionId: string) =>
  eventually(async () => {
    const s = (await df('GET', `/sessions/${sessionId}`)).body;
    return s.status === 'ended' ? (s as { status: string; endReason: string }) : undefined;
  }, { what: `session ${sessionId} to end` });

beforeAll(async () => {
  // A short module idle time-out makes the sweep of sessions (idle ones, abandoned ones) run twice a second;
  // the test's workspace keeps its sessions an hour, so no session here ends idle.
  server = await startTestServer({ AGENT_ENABLED: 'false', DF_SESSION_IDLE_TIMEOUT: '2s' });
  a = await signUpCompany(server.url, 'loss');
  token = a.token;
  const defaults = await df('GET', '/settings/session-defaults');
  expect((await df('PUT', '/settings/session-defaults', { ...defaults.body, idleTimeoutSeconds: 3_600 })).status).toBe(200);
}, 90_000);

afterAll(async () => {
  for (const agent of agents) await agent.stop();
  await server?.stop();
});

describe('a session ends because of its device', () => {
  it('ends with device-disconnected when its device leaves its host, and the host keeps its other devices', async () => {
    const [gone, stays] = [device(randomUUID(), 'Loss unplugged'), device(randomUUID(), 'Loss stays')];
    const bench = new Bench([gone, stays]);
    await startAgent(await enrolHost(server.url, token, 'Unplugging rack'), bench);
    await availableDevice(gone.info.deviceId);
    const sessionId = await openSession(gone.info.deviceId);

    bench.unplug(gone.info.deviceId);
    expect((await ended(sessionId)).endReason).toBe('device-disconnected');
    expect((await df('GET', `/devices/${gone.info.deviceId}`)).body.status).toBe('offline');
    expect((await df('GET', `/devices/${stays.info.deviceId}`)).body.status).toBe('available');
  });

  it('ends with device-error when its host reports the device broken during the session', async () => {
    const breaking = device(randomUUID(), 'Loss breaking');
    await startAgent(await enrolHost(server.url, token, 'Breaking rack'), new Bench([breaking]));
    await availableDevice(breaking.info.deviceId);
    const sessionId = await openSession(breaking.info.deviceId);

    breaking.break('the USB cable was pulled');
    expect((await ended(sessionId)).endReason).toBe('device-error');
  });

  it('ends with device-reset when the host comes back from a restart with the device ready and holding no session', async () => {
    const deviceId = randomUUID();
    const hostToken = await enrolHost(server.url, token, 'Restarting rack');
    const dying = silenceable(server.process.platform.bus);
    await startAgent(hostToken, new Bench([device(deviceId, 'Loss restarted')]), dying.bus);
    await availableDevice(deviceId);
    const sessionId = await openSession(deviceId);

    // The agent dies without a goodbye; the one started in its place knows nothing of the session.
    await dying.silence();
    await startAgent(hostToken, new Bench([device(deviceId, 'Loss restarted')]));
    expect((await ended(sessionId)).endReason).toBe('device-reset');
    await availableDevice(deviceId);
  });
});

describe('a session whose preparation was abandoned', () => {
  it('ends with prepare-abandoned once it has stayed starting far past the prepare time-out', async () => {
    const spare = device(randomUUID(), 'Loss spare');
    const host = await startAgent(await enrolHost(server.url, token, 'Spare rack'), new Bench([spare]));
    await availableDevice(spare.info.deviceId);
    // What a replica that crashed mid-create left behind: the request, two hours ago, and nothing after it.
    const sessionId = randomUUID();
    const requestedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    await server.process.platform.store.append(
      sessionStream(sessionId),
      [
        {
          type: 'DeviceSessionRequested',
          payload: {
            sessionId,
            deviceId: spare.info.deviceId,
            hostId: host.hostId,
            deviceName: spare.info.name,
            name: 'Crashed mid-create',
            type: 'manual',
            buildName: null,
            metadata: {},
            ownerId: a.userId,
            companyId: a.companyId,
            workspaceId: a.workspaceId,
          },
          metadata: { actorId: a.userId, companyId: a.companyId, workspaceId: a.workspaceId, occurredAt: requestedAt },
        },
      ],
      'no_stream',
    );

    expect((await ended(sessionId)).endReason).toBe('prepare-abandoned');
    // Never allocated to it, the device stays free.
    expect((await df('GET', `/devices/${spare.info.deviceId}`)).body.status).toBe('available');
  });
});
