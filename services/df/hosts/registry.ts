import type { Logger } from 'pino';
import { devicesOfHost, hostsWithOnlineDevices } from '#projections/df-devices/index.js';
import { openSessionsOnDevices } from '#projections/df-sessions/index.js';
import type { BusMessage, BusSubscription, MessageBus } from '#shared/bus/index.js';
import type { Database } from '#shared/db/index.js';
import { fold, type CommandContext } from '#shared/es/decider.js';
import type { KeyValueStore } from '#shared/kv/types.js';
import {
  Bye,
  DevicesReport,
  Heartbeat,
  Hello,
  PROTOCOL_VERSION,
  decode,
  fail,
  hostIdOf,
  ok,
  subjects,
  type DeviceInfo,
  type DeviceState,
} from '#shared/wire/index.js';
import { deviceDecider } from '../devices/decide.js';
import { deviceStream, type DeviceFacts, type DevicePlacement } from '../devices/events.js';
import type { DeviceCommands } from '../devices/service.js';

/** What the registry asks of the session side when a host or device goes away or misbehaves. */
export interface SessionEnder {
  /** Ends a session for a reason not of the user's making (device lost, host lost, crash). */
  endForDevice(sessionId: string, reason: string): Promise<void>;
  /** Tells a device to drop a session the platform no longer has (stale after a restart). */
  releaseStale(target: { hostId: string; deviceId: string; sessionId: string }): Promise<void>;
  /** Whether the session is still open in the event store (not just the read model). */
  isOpen(sessionId: string): Promise<boolean>;
}

const QUEUE = 'df-service';
const hostKey = (hostId: string) => `df:host:${hostId}`;

function factsOf(info: DeviceInfo): DeviceFacts {
  const { deviceId: _id, ...facts } = info;
  return facts;
}

/**
 * Turns what agents report into device events. Liveness lives in the key-value store (`df:host:<id>`
 * with a TTL of the host time-out), so every replica of the service agrees on which hosts are alive;
 * a reaper takes the devices of silent hosts offline and ends their sessions.
 */
export class HostRegistry {
  private subscriptions: BusSubscription[] = [];
  private reaper: NodeJS.Timeout | null = null;
  private reaping: Promise<void> | null = null;
  private readonly startedAt = Date.now();

  constructor(
    private readonly deps: {
      bus: MessageBus;
      kv: KeyValueStore;
      db: Database;
      devices: DeviceCommands;
      sessions: SessionEnder;
      logger: Logger;
      hostTimeoutMs: number;
      now: () => Date;
    },
  ) {}

  /** Subscribes to every host's reports, asks running agents to announce themselves, starts the reaper. */
  async start(): Promise<void> {
    const { bus } = this.deps;
    const on = (subject: string, handler: (msg: BusMessage) => Promise<void>) =>
      bus.subscribe(subject, (msg) => handler(msg).catch((err: unknown) => this.deps.logger.warn({ err, subject: msg.subject }, 'agent message failed')), { queue: QUEUE });
    this.subscriptions = await Promise.all([
      on(subjects.anyHello(), (m) => this.onHello(m)),
      on(subjects.anyHeartbeat(), (m) => this.onHeartbeat(m)),
      on(subjects.anyDevices(), (m) => this.onDevices(m)),
      on(subjects.anyBye(), (m) => this.onBye(m)),
    ]);
    await bus.publish(subjects.serviceHello(), new Uint8Array());
    const every = Math.max(100, Math.floor(this.deps.hostTimeoutMs / 3));
    this.reaper = setInterval(() => {
      this.reaping ??= this.reap()
        .catch((err: unknown) => this.deps.logger.warn({ err }, 'host reaper failed'))
        .finally(() => (this.reaping = null));
    }, every);
    this.reaper.unref();
  }

  async stop(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    this.reaper = null;
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    this.subscriptions = [];
    await this.reaping;
  }

  private context(hostId: string): CommandContext {
    return { actorId: `agent:${hostId}`, now: this.deps.now() };
  }

  private async onHello(msg: BusMessage): Promise<void> {
    const hello = this.parse(msg, Hello);
    if (!hello) return;
    await this.deps.kv.set(hostKey(hello.hostId), JSON.stringify({ nodeName: hello.nodeName, hubId: hello.hubId }), { ttlMs: this.deps.hostTimeoutMs });
    const placement: DevicePlacement = { hostId: hello.hostId, nodeName: hello.nodeName, hubId: hello.hubId, companyId: hello.companyId };
    await this.reconcileDevices(placement, hello.devices);
    await this.reconcileStates(hello.hostId, hello.states);
    this.deps.logger.info({ hostId: hello.hostId, devices: hello.devices.length }, 'agent announced');
    await this.deps.bus.respond(msg, ok({ known: true }));
  }

  private async onHeartbeat(msg: BusMessage): Promise<void> {
    const beat = this.parse(msg, Heartbeat);
    if (!beat) return;
    const known = await this.deps.kv.get(hostKey(beat.hostId));
    if (known === null) {
      // Declared lost (or never announced to this installation): the host must announce itself again.
      await this.deps.bus.respond(msg, ok({ known: false }));
      return;
    }
    await this.deps.kv.set(hostKey(beat.hostId), known, { ttlMs: this.deps.hostTimeoutMs });
    await this.deps.bus.respond(msg, ok({ known: true }));
    await this.reconcileStates(beat.hostId, beat.states);
  }

  private async onDevices(msg: BusMessage): Promise<void> {
    const report = this.parse(msg, DevicesReport);
    if (!report) return;
    const known = await this.deps.kv.get(hostKey(report.hostId));
    if (known === null) return;
    const { nodeName, hubId } = JSON.parse(known) as { nodeName: string; hubId: string };
    const rows = await devicesOfHost(this.deps.db, report.hostId);
    const companyId = rows[0]?.companyId ?? null;
    await this.reconcileDevices({ hostId: report.hostId, nodeName, hubId, companyId }, report.devices);
    await this.reconcileStates(report.hostId, report.states);
  }

  private async onBye(msg: BusMessage): Promise<void> {
    const bye = this.parse(msg, Bye);
    if (!bye) return;
    await this.deps.kv.delete(hostKey(bye.hostId));
    await this.hostLost(bye.hostId, 'host-stopped');
  }

  /** Decodes a message; a bad one is answered `fail` (requests) or dropped, never thrown at the bus. */
  private parse<S extends typeof Hello | typeof Heartbeat | typeof DevicesReport | typeof Bye>(msg: BusMessage, schema: S): ReturnType<S['parse']> | null {
    try {
      const raw = JSON.parse(new TextDecoder().decode(msg.data)) as { protocol?: unknown };
      if (raw.protocol !== PROTOCOL_VERSION) {
        if (msg.reply) void this.deps.bus.respond(msg, fail('PROTOCOL_MISMATCH', `The service speaks protocol ${PROTOCOL_VERSION}`));
        return null;
      }
      const parsed = decode(schema, msg.data) as ReturnType<S['parse']>;
      if (hostIdOf(msg.subject) !== parsed.hostId) throw new Error('host id does not match the subject');
      return parsed;
    } catch (err) {
      this.deps.logger.warn({ subject: msg.subject, err: (err as Error).message }, 'invalid agent message');
      if (msg.reply) void this.deps.bus.respond(msg, fail('BAD_REQUEST', (err as Error).message.slice(0, 300)));
      return null;
    }
  }

  /** Devices the host has are connected (when they were not, or changed); devices it no longer has go offline. */
  private async reconcileDevices(placement: DevicePlacement, devices: readonly DeviceInfo[]): Promise<void> {
    const context = this.context(placement.hostId);
    const reported = new Set(devices.map((d) => d.deviceId));
    for (const info of devices) {
      await this.deps.devices.run({ type: 'ConnectDevice', deviceId: info.deviceId, facts: factsOf(info), placement }, context);
    }
    const gone: string[] = [];
    for (const row of await devicesOfHost(this.deps.db, placement.hostId)) {
      if (reported.has(row.deviceId) || row.status === 'offline') continue;
      await this.deps.devices.run({ type: 'DisconnectDevice', deviceId: row.deviceId, hostId: placement.hostId, reason: 'removed-from-host' }, context);
      gone.push(row.deviceId);
    }
    await this.endSessionsOn(gone, 'device-disconnected');
  }

  /**
   * Compares what each worker says with what the platform believes: a broken device goes to
   * maintenance (ending its session); a device that holds a session the platform has closed is told
   * to drop it; an open session whose device no longer holds it (the agent restarted) is ended.
   */
  private async reconcileStates(hostId: string, states: readonly DeviceState[]): Promise<void> {
    const context = this.context(hostId);
    const rows = new Map((await devicesOfHost(this.deps.db, hostId)).map((r) => [r.deviceId, r]));
    for (const s of states) {
      const row = rows.get(s.deviceId);
      if (!row) continue;
      if (row.status === 'offline') {
        // Back after a lost heartbeat: the device stream still has its facts.
        await this.deps.devices.run({ type: 'ConnectDevice', ...(await this.reconnectFacts(s.deviceId, hostId)) }, context).catch(() => undefined);
      }
      const broken = s.state === 'broken';
      if ((row.health === 'broken') !== broken) {
        await this.deps.devices.run({ type: 'ReportDeviceHealth', deviceId: s.deviceId, health: broken ? 'broken' : 'ok', reason: s.detail ?? s.state }, context);
      }
      if (broken && row.sessionId) await this.deps.sessions.endForDevice(row.sessionId, 'device-error');
      if (s.sessionId && s.sessionId !== row.sessionId && !(await this.deps.sessions.isOpen(s.sessionId))) {
        await this.deps.sessions.releaseStale({ hostId, deviceId: s.deviceId, sessionId: s.sessionId });
      }
      if (row.sessionId && s.state === 'ready' && s.sessionId === null && (await this.deps.sessions.isOpen(row.sessionId))) {
        const open = await openSessionsOnDevices(this.deps.db, [s.deviceId]);
        if (open.some((o) => o.id === row.sessionId && o.status === 'active')) await this.deps.sessions.endForDevice(row.sessionId, 'device-reset');
      }
    }
  }

  private async reconnectFacts(deviceId: string, hostId: string): Promise<{ deviceId: string; facts: DeviceFacts; placement: DevicePlacement }> {
    const state = fold(deviceDecider, await this.deps.devices.store.readStream(deviceStream(deviceId)));
    if (!state.facts || !state.placement || state.placement.hostId !== hostId) throw new Error('device facts unknown');
    return { deviceId, facts: state.facts, placement: state.placement };
  }

  /** Takes the devices of hosts whose liveness key expired offline. */
  private async reap(): Promise<void> {
    for (const hostId of await hostsWithOnlineDevices(this.deps.db)) {
      if ((await this.deps.kv.get(hostKey(hostId))) !== null) continue;
      // Right after a start, give running agents one time-out to answer the service hello.
      if (Date.now() - this.startedAt < this.deps.hostTimeoutMs) continue;
      this.deps.logger.warn({ hostId }, 'host missed its heartbeats; its devices go offline');
      await this.hostLost(hostId, 'heartbeat-missed');
    }
  }

  private async hostLost(hostId: string, reason: string): Promise<void> {
    const context = this.context(hostId);
    const lost: string[] = [];
    for (const row of await devicesOfHost(this.deps.db, hostId)) {
      if (row.status === 'offline') continue;
      await this.deps.devices.run({ type: 'DisconnectDevice', deviceId: row.deviceId, hostId, reason }, context);
      lost.push(row.deviceId);
    }
    await this.endSessionsOn(lost, reason === 'heartbeat-missed' ? 'host-lost' : reason);
  }

  private async endSessionsOn(deviceIds: readonly string[], reason: string): Promise<void> {
    for (const s of await openSessionsOnDevices(this.deps.db, deviceIds)) {
      await this.deps.sessions.endForDevice(s.id, reason).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: s.id }, 'ending a session failed'));
    }
  }
}
