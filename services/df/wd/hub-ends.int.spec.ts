import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dfDevicesProjection } from '#projections/df-devices/index.js';
import { projectionSpec, type ProjectionSpec } from '#projections/testing.js';
import type { SessionEndReason } from '#events/df/sessions.js';
import { createMemoryKv } from '#shared/kv/index.js';
import { SessionHolders } from '../core/holders.js';
import type { SessionPort } from '../core/session-port.js';
import { WebDriverHub } from './hub.js';
import type { WebDriverTransport } from './transport.js';

/**
 * How the WebDriver hub ends the platform session it opened for a request, when the request does not
 * get its WebDriver session: the device's WebDriver server fails it (`webdriver-session-failed`), or the
 * client goes away while the device is being taken (`webdriver-request-abandoned`); and how it keeps a
 * session's client counted as present to the busy-device watchdog while a command of it is under way or
 * was answered since the watchdog's last tick. The devices are the read model's, on PGlite; the sessions
 * port and the transport are the test's.
 */
let devices: ProjectionSpec;
beforeAll(async () => {
  devices = await projectionSpec(dfDevicesProjection);
  await devices.given({
    type: 'DeviceConnected',
    payload: {
      deviceId: 'd-1',
      facts: { name: 'Pixel 7', platform: 'android', osVersion: '14', model: 'Pixel 7', manufacturer: 'Google', type: 'phone', isRealDevice: true, provider: 'adb', screen: { width: 1080, height: 2400, scale: 1 } },
      placement: { hostId: 'h-1', nodeName: 'node-a', hubId: 'hub-1', companyId: 1, workspaceIds: null },
      status: 'available',
    },
  });
});
afterAll(() => devices.close());

const caller = { userId: 7, companyId: 1, workspaceId: 1 };
const request = { capabilities: { alwaysMatch: { platformName: 'android', 'df:deviceId': 'd-1' } } };

/** A sessions port that opens a session when `opening` lets it, says when it was asked to (`asked`), and keeps how each session ended. */
function sessionsPort(opening: Promise<void> = Promise.resolve(), holders?: SessionHolders) {
  const ends: { sessionId: string; reason: SessionEndReason }[] = [];
  let created = 0;
  let wasAsked!: () => void;
  const asked = new Promise<void>((resolve) => (wasAsked = resolve));
  const session = (id: string) => ({ id, deviceId: 'd-1', hostId: 'h-1', companyId: 1, workspaceId: 1, status: 'active', endReason: null });
  const port = {
    deviceScope: (c: typeof caller) => ({ ...c, sharedPool: false }),
    create: async () => {
      wasAsked();
      await opening;
      return session(`s-${++created}`);
    },
    get: async (_scope: unknown, id: string) => session(id),
    end: async (s: { id: string }, reason: SessionEndReason) => void ends.push({ sessionId: s.id, reason }),
    isOpen: async () => true,
    recordActivity: async () => {},
    recordActivities: async () => {},
    holders,
  };
  return { port: port as unknown as SessionPort, ends, asked };
}

function hub(sessions: SessionPort, send: WebDriverTransport['send']): WebDriverHub {
  const transport = { send, forget: () => {} } as unknown as WebDriverTransport;
  return new WebDriverHub({ db: devices.db, kv: createMemoryKv(), sessions, bookings: null, transport, logger: pino({ level: 'silent' }), now: () => new Date(), queueTimeoutMs: 5_000, idleTimeoutMs: 60_000 });
}

describe('the WebDriver hub ends the platform session it opened', () => {
  let unreachable: WebDriverTransport['send'];
  beforeEach(() => {
    unreachable = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:4723');
    };
  });

  it('with webdriver-session-failed when the device WebDriver server cannot be reached', async () => {
    const { port, ends } = sessionsPort();
    await expect(hub(port, unreachable).newSession(caller, request)).rejects.toMatchObject({ error: 'session not created' });
    expect(ends).toEqual([{ sessionId: 's-1', reason: 'webdriver-session-failed' }]);
  });

  it('with webdriver-session-failed when the device WebDriver server refuses the session', async () => {
    const { port, ends } = sessionsPort();
    const refusing: WebDriverTransport['send'] = async () => ({ status: 500, contentType: 'application/json', body: Buffer.from(JSON.stringify({ value: { error: 'session not created', message: 'no driver' } })) });
    await expect(hub(port, refusing).newSession(caller, request)).rejects.toMatchObject({ error: 'session not created' });
    expect(ends).toEqual([{ sessionId: 's-1', reason: 'webdriver-session-failed' }]);
  });

  it('with webdriver-request-abandoned when its client went away while the device was being taken', async () => {
    let open!: () => void;
    const { port, ends, asked } = sessionsPort(new Promise<void>((resolve) => (open = resolve)));
    let sent = 0;
    const counting: WebDriverTransport['send'] = async () => {
      sent++;
      throw new Error('not asked for');
    };
    const client = new AbortController();
    const answer = hub(port, counting).newSession(caller, request, client.signal);
    // The client leaves while the session is being opened (well within the queue's 5 s); then the session opens, for no one.
    await asked;
    client.abort();
    await expect(answer).rejects.toThrow('The client went away');
    open();
    await expect.poll(() => ends).toEqual([{ sessionId: 's-1', reason: 'webdriver-request-abandoned' }]);
    expect(sent).toBe(0);
  });
});

describe('a WebDriver client waiting on a long command', () => {
  it('is present to the watchdog while the command is under way and at the tick after it is answered, and no longer after that', async () => {
    const kv = createMemoryKv();
    const holders = new SessionHolders(kv, 60_000);
    const { port } = sessionsPort(Promise.resolve(), holders);
    let answer!: () => void;
    let commandSent!: () => void;
    const sent = new Promise<void>((resolve) => (commandSent = resolve));
    const appium: WebDriverTransport['send'] = async (_id, method, path) => {
      if (method === 'POST' && path === '/session') return { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify({ value: { sessionId: 'appium-1', capabilities: {} } })) };
      // An implicit wait, a long script: the device answers when the test says so.
      commandSent();
      await new Promise<void>((resolve) => (answer = resolve));
      return { status: 200, contentType: 'application/json', body: Buffer.from(JSON.stringify({ value: 'https://example.test/' })) };
    };
    const wd = hub(port, appium);
    await wd.newSession(caller, request);
    const session = await port.get(caller, 's-1');
    // The claim at the session's start counts as present for its time to live: forget it, as that time running out would.
    await kv.delete('df:holder:present:s-1');
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'webdriver', present: false }]);

    const command = wd.command(caller, session as never, 'GET', '/url', undefined, async () => true);
    await sent;
    await holders.publish();
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'webdriver', present: true }]);

    answer();
    expect((await command).status).toBe(200);
    // Answered since the last tick: the client is there, whether or not its command has reached the read model.
    await kv.delete('df:holder:present:s-1');
    await holders.publish();
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'webdriver', present: true }]);
    // No command since: the next tick no longer vouches for it.
    await kv.delete('df:holder:present:s-1');
    await holders.publish();
    expect(await holders.of(['s-1'])).toEqual([{ claimedBy: 'webdriver', present: false }]);
    await wd.stop();
  });
});
