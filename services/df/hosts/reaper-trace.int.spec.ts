import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { dfDevicesProjection, devicesOfHost } from '#projections/df-devices/index.js';
import { ProjectionRunner } from '#projections/runner.js';
import { createMemoryBus, type MessageBus } from '#shared/bus/index.js';
import { openPglite, type Database } from '#shared/db/index.js';
import { createSqlEventStore, migrateSqlEventStore, type EventStore } from '#shared/es/index.js';
import { createMemoryKv } from '#shared/kv/index.js';
import { startTracing, tracedEventStore, type Tracing } from '#shared/tracing/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '#test/helpers/otlp-receiver.js';
import { DeviceCommands } from '../devices/service.js';
import { HostEnrolments } from './enrolments.js';
import { HostRegistry } from './registry.js';

/**
 * The host reaper (a periodic job of the device module) with tracing on, against a real agent on the
 * in-process bus, the SQL event store (wrapped as the platform wraps it) and the device read model on
 * PGlite: while the host beats, its ticks find nothing and make no span; once it falls silent, the tick
 * that declares it lost is the root span `df.periodic host-reaper`, and its devices' appends are its children.
 */
let receiver: OtlpReceiver;
let tracing: Tracing | null;
let db: Database;
let store: EventStore;
let runner: ProjectionRunner;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20' }, 'qa-reaper-trace-test');
  expect(tracing).not.toBeNull();
  db = await openPglite();
  await migrateSqlEventStore(db);
  store = tracedEventStore(createSqlEventStore(db));
  runner = new ProjectionRunner({ store, db, projections: [dfDevicesProjection], idlePollMs: 50 });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await store?.close();
  await db?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

const POOL_TOKEN = 'reaper-trace-test-pool-token-0123456789ab';

/** The agent's side of the bus, which can fall silent as a crashed host does (no goodbye, no beat). */
function silenceable(bus: MessageBus): { bus: MessageBus; silence(): void } {
  let silent = false;
  const wrapped = Object.create(bus) as MessageBus;
  wrapped.publish = (subject, data, headers) => (silent ? Promise.resolve() : bus.publish(subject, data, headers));
  wrapped.request = (subject, data, options) => (silent ? Promise.reject(new Error('the host is cut off')) : bus.request(subject, data, options));
  return { bus: wrapped, silence: () => (silent = true) };
}

describe('the host reaper with tracing on', () => {
  it('makes no span while the host beats, and one root span with the devices’ appends under it when it reaps the host', async () => {
    const bus = createMemoryBus();
    const registry = new HostRegistry({
      bus,
      kv: createMemoryKv(),
      db,
      devices: new DeviceCommands(store),
      sessions: { endForDevice: async () => {}, releaseStale: async () => {}, isOpen: async () => false },
      enrolments: new HostEnrolments({ store, sharedPoolToken: POOL_TOKEN }),
      logger: pino({ level: 'silent' }),
      hostTimeoutMs: 600,
      clock: { now: () => new Date() },
    });
    await registry.start();
    const agentSide = silenceable(bus);
    const config = loadAgentConfig({ value: { hostToken: POOL_TOKEN, hostId: 'reaped-host', nodeName: 'reaped-node', heartbeatMs: 100, devices: [1, 2].map((i) => ({ provider: 'simulated' as const, name: `Reaped ${i}` })) } });
    const agent = new AgentHost({ bus: agentSide.bus, logger: pino({ level: 'silent' }), config });
    await agent.start();
    try {
      await expect.poll(async () => (await devicesOfHost(db, 'reaped-host')).filter((d) => d.status === 'available').length, { timeout: 10_000 }).toBe(2);
      // The reaper ticks every 200 ms: beats for two host time-outs, so several ticks found the host alive.
      const beats = registry.stats.heartbeats;
      await expect.poll(() => registry.stats.heartbeats, { timeout: 5_000 }).toBeGreaterThanOrEqual(beats + 12);
      agentSide.silence();
      await expect.poll(async () => (await devicesOfHost(db, 'reaped-host')).filter((d) => d.status === 'offline').length, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => receiver.spans.some((s) => s.name === 'df.periodic host-reaper')).toBe(true);
      const reaps = receiver.spans.filter((s) => s.name === 'df.periodic host-reaper');
      // Only the tick that found the host gone made a span: the ticks before it found nothing to do.
      expect(reaps).toHaveLength(1);
      expect(reaps[0]).toMatchObject({ parentSpanId: '', statusCode: 0, attributes: { 'hosts.lost': 1 } });
      // The host's one append for all its devices, on the host's stream: a child of the tick.
      await expect.poll(() => receiver.spans.some((s) => s.traceId === reaps[0]!.traceId && s.name === 'event store append device')).toBe(true);
      const appends = receiver.spans.filter((s) => s.traceId === reaps[0]!.traceId && s.name !== 'df.periodic host-reaper');
      expect(appends).toEqual([expect.objectContaining({ name: 'event store append device', parentSpanId: reaps[0]!.spanId, attributes: expect.objectContaining({ 'es.stream': 'device-host-reaped-host' }) })]);
    } finally {
      await agent.stop();
      await registry.stop();
      await bus.close();
    }
  });
});
