import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBus, type MessageBus } from '#shared/bus/index.js';
import { DeviceRequestError, Heartbeat, PROTOCOL_VERSION, decode, ok, requestDevice, subjects } from '#shared/wire/index.js';
import { AgentHost } from './host.js';
import { loadAgentConfig } from './config.js';

/** The agent over a real in-process bus, with a service stand-in that answers hello and heartbeats. */
let bus: MessageBus;
let host: AgentHost;

async function startHost(devices: { name: string; prepareMs?: number }[]) {
  bus = createMemoryBus();
  const beats: { states: { deviceId: string; state: string }[] }[] = [];
  await bus.subscribe(subjects.anyHello(), (m) => bus.respond(m, ok({ known: true })));
  await bus.subscribe(subjects.anyHeartbeat(), async (m) => {
    beats.push(decode(Heartbeat, m.data));
    await bus.respond(m, ok({ known: true }));
  });
  const config = loadAgentConfig({ value: { hostId: 'test-host', heartbeatMs: 100, devices: devices.map((d) => ({ provider: 'simulated' as const, ...d })) } });
  host = new AgentHost({ bus, config, logger: pino({ level: 'silent' }) });
  await host.start();
  return { beats, ids: host.deviceIds() };
}

afterEach(async () => {
  await host?.stop();
  await bus?.close();
});

describe('agent host', () => {
  it('keeps one worker per device: a wedged device times out alone while another answers and heartbeats go on', async () => {
    const { beats, ids } = await startHost([{ name: 'wedged', prepareMs: 60_000 }, { name: 'healthy' }]);
    const [wedged, healthy] = ids as [string, string];
    const stuck = requestDevice(bus, { hostId: 'test-host', deviceId: wedged, sessionId: 's-1' }, { op: 'prepare' }, { timeoutMs: 500 });
    const fine = await requestDevice(bus, { hostId: 'test-host', deviceId: healthy, sessionId: 's-2' }, { op: 'prepare' }, { timeoutMs: 500 });
    expect(fine.sessionId).toBe('s-2');
    const seen = beats.length;
    await expect(stuck).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(beats.length).toBeGreaterThan(seen);
    const last = beats.at(-1)!.states;
    expect(last.find((s) => s.deviceId === healthy)?.state).toBe('in_session');
  });

  it('refuses commands of another session, a second session, and a foreign protocol version', async () => {
    const { ids } = await startHost([{ name: 'one' }]);
    const deviceId = ids[0]!;
    await requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-1' }, { op: 'prepare' }, { timeoutMs: 1_000 });
    await expect(requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-2' }, { op: 'prepare' }, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    await expect(requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-2' }, { op: 'uiTree' }, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'NOT_PREPARED' });
    const raw = await bus.request(subjects.rpc('test-host', deviceId), new TextEncoder().encode(JSON.stringify({ protocol: 99 })), { timeoutMs: 1_000 });
    expect(JSON.parse(new TextDecoder().decode(raw.data))).toMatchObject({ type: 'fail', code: 'PROTOCOL_MISMATCH' });
    // Release is idempotent, and the device is free for the next session afterwards.
    await requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-1' }, { op: 'release' }, { timeoutMs: 1_000 });
    await requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-1' }, { op: 'release' }, { timeoutMs: 1_000 });
    expect((await requestDevice(bus, { hostId: 'test-host', deviceId, sessionId: 's-3' }, { op: 'prepare' }, { timeoutMs: 1_000 })).sessionId).toBe('s-3');
  });

  it('reports an unreachable host as UNREACHABLE', async () => {
    bus = createMemoryBus();
    const err = await requestDevice(bus, { hostId: 'nobody', deviceId: 'd', sessionId: 's' }, { op: 'uiTree' }, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceRequestError);
    expect((err as DeviceRequestError).code).toBe('UNREACHABLE');
    expect(PROTOCOL_VERSION).toBe(1);
  });
});
