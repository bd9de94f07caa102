import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentHost, loadAgentConfig } from '#agent/index.js';
import { dfDevicesProjection, devicesOfHost, inventoryOfHost } from '#projections/df-devices/index.js';
import { dfSessionsProjection } from '#projections/df-sessions/index.js';
import { ProjectionRunner } from '#projections/runner.js';
import { createMemoryBus } from '#shared/bus/index.js';
import type { Database } from '#shared/db/index.js';
import type { CommandContext } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { createMemoryKv } from '#shared/kv/index.js';
import { openPgliteStore } from '#test/helpers/pglite.js';
import type { DeviceCommand } from '../devices/decide.js';
import { DeviceCommands } from '../devices/service.js';
import { HostEnrolments } from './enrolments.js';
import { HostRegistry } from './registry.js';

/**
 * The host registry against a real agent on the in-process bus, the SQL event store and the device read
 * model on PGlite. What fails here is the database write of one device, as a lost connection would.
 */
let db: Database;
let store: EventStore;
let closeStore: () => Promise<void>;
let runner: ProjectionRunner;

beforeAll(async () => {
  ({ db, store, close: closeStore } = await openPgliteStore());
  runner = new ProjectionRunner({ store, db, projections: [dfDevicesProjection, dfSessionsProjection], idlePollMs: 50 });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await closeStore?.();
});

/** Device commands whose first `ConnectDevice` of one device fails, as a database error would. */
class FailingOnce extends DeviceCommands {
  failures = 0;
  constructor(
    store: EventStore,
    private readonly deviceName: string,
  ) {
    super(store);
  }

  override async run(command: DeviceCommand, context: CommandContext) {
    if (command.type === 'ConnectDevice' && command.facts.name === this.deviceName && this.failures === 0) {
      this.failures++;
      throw new Error('connection terminated unexpectedly');
    }
    return super.run(command, context);
  }
}

/** The hosts here join as the operator's shared pool: enrolment is not what these tests are about. */
const POOL_TOKEN = 'registry-test-pool-token-0123456789abcdef';

/** A registry on its own in-process bus; the test's sessions are none, so nothing is ended or released. */
function registryWith(bus: ReturnType<typeof createMemoryBus>, devices: DeviceCommands, joined?: (hostId: string, deviceIds: string[]) => void): HostRegistry {
  return new HostRegistry({
    ...(joined ? { joined } : {}),
    bus,
    kv: createMemoryKv(),
    db,
    devices,
    sessions: { endForDevice: async () => {}, releaseStale: async () => {}, isOpen: async () => false },
    enrolments: new HostEnrolments({ store, sharedPoolToken: POOL_TOKEN }),
    logger: pino({ level: 'silent' }),
    hostTimeoutMs: 5_000,
    clock: { now: () => new Date() },
  });
}

describe('host registry', () => {
  it('has the agent announce itself again when its devices failed to reconcile, so no device stays missing', async () => {
    const bus = createMemoryBus();
    const logger = pino({ level: 'silent' });
    const devices = new FailingOnce(store, 'Retry 2');
    const registry = registryWith(bus, devices);
    await registry.start();
    const agent = new AgentHost({
      bus,
      logger,
      config: loadAgentConfig({
        value: { hostToken: POOL_TOKEN, hostId: 'retry-host', nodeName: 'retry-node', heartbeatMs: 100, devices: [1, 2, 3].map((i) => ({ provider: 'simulated' as const, name: `Retry ${i}` })) },
      }),
    });
    await agent.start();
    try {
      await vi.waitFor(async () => expect((await devicesOfHost(db, 'retry-host')).filter((d) => d.status === 'available')).toHaveLength(3), { timeout: 10_000, interval: 50 });
      expect(devices.failures).toBe(1);
      // Every device is there once: the retry connected only the one that failed.
      const connected = (await store.readAll({ filter: { eventTypes: ['DeviceConnected'] } })).filter((e) => (e.payload as { placement: { hostId: string } }).placement.hostId === 'retry-host');
      expect(connected).toHaveLength(3);
    } finally {
      await agent.stop();
      await registry.stop();
      await bus.close();
    }
  });

  it('does no work for beats that restate the hello while the hello is still being reconciled', async () => {
    const bus = createMemoryBus();
    const logger = pino({ level: 'silent' });
    let registry!: HostRegistry;
    /** Device commands that hold the hello's writes until the registry has handled two heartbeats. */
    class Slow extends DeviceCommands {
      override async run(command: DeviceCommand, context: CommandContext) {
        if (command.type === 'ConnectDevice') await vi.waitFor(() => expect(registry.stats.heartbeats).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 10 });
        return super.run(command, context);
      }
    }
    registry = registryWith(bus, new Slow(store));
    await registry.start();
    const agent = new AgentHost({
      bus,
      logger,
      config: loadAgentConfig({ value: { hostToken: POOL_TOKEN, hostId: 'slow-host', nodeName: 'slow-node', heartbeatMs: 100, devices: [{ provider: 'simulated' as const, name: 'Slow 1' }] } }),
    });
    await agent.start();
    try {
      await vi.waitFor(async () => expect((await devicesOfHost(db, 'slow-host')).filter((d) => d.status === 'available')).toHaveLength(1), { timeout: 10_000, interval: 50 });
      await vi.waitFor(() => expect(registry.stats.heartbeats).toBeGreaterThanOrEqual(4), { timeout: 5_000, interval: 10 });
      // Every beat restated what the hello said: none needed reconciling.
      expect(registry.stats.unchangedHeartbeats).toBe(registry.stats.heartbeats);
    } finally {
      await agent.stop();
      await registry.stop();
      await bus.close();
    }
  });
  it('says which devices joined: every device of a hello, and of a report only those it adds or brings back', async () => {
    const bus = createMemoryBus();
    const joined: string[][] = [];
    const registry = registryWith(bus, new DeviceCommands(store), (hostId, ids) => joined.push([hostId, ...[...ids].sort()]));
    await registry.start();
    const config = loadAgentConfig({ value: { hostToken: POOL_TOKEN, hostId: 'joined-host', nodeName: 'joined-node', heartbeatMs: 100, devices: [1, 2].map((i) => ({ provider: 'simulated' as const, name: `Joined ${i}` })) } });
    const agent = new AgentHost({ bus, logger: pino({ level: 'silent' }), config });
    await agent.start();
    try {
      await vi.waitFor(() => expect(joined).toHaveLength(1), { timeout: 10_000, interval: 20 });
      const ids = agent.deviceIds().sort();
      expect(joined[0]).toEqual(['joined-host', ...ids]);
      const infos = ids.map((id) => agent.driverOf(id)!.info);
      const placement = { hostId: 'joined-host', nodeName: 'joined-node', hubId: 'local', companyId: null, workspaceIds: null };
      // The hello's devices in the read model the registry reconciles against (before, a report could find them not there yet).
      await vi.waitFor(async () => expect((await inventoryOfHost(db, 'joined-host')).filter((r) => r.status !== 'offline').map((r) => r.deviceId).sort()).toEqual(ids), { timeout: 10_000, interval: 20 });
      // A report of the same devices: none joined.
      await registry.reconcileInventory(placement, infos, { hello: false });
      expect(joined).toHaveLength(1);
      // One leaves and comes back in the next report; a hello again names both.
      await registry.reconcileInventory(placement, infos.slice(0, 1), { hello: false });
      await registry.reconcileInventory(placement, infos, { hello: false });
      expect(joined.slice(1)).toEqual([['joined-host', ids[1]!]]);
      await registry.reconcileInventory(placement, infos, { hello: true });
      expect(joined.slice(2)).toEqual([['joined-host', ...ids]]);
    } finally {
      await agent.stop();
      await registry.stop();
      await bus.close();
    }
  });
});
