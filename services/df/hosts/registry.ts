import type { Logger } from 'pino';
import { devicesOfHost, hostsWithOnlineDevices, inventoryOfHost, type HostDeviceRow } from '#projections/df-devices/index.js';
import { openSessionsOnDevices } from '#projections/df-sessions/index.js';
import type { BusMessage, BusSubscription, MessageBus } from '#shared/bus/index.js';
import { KeyedQueue, Slots } from '#shared/concurrency.js';
import type { Database } from '#shared/db/index.js';
import type { CommandContext } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import { sameJson } from '#shared/canonical.js';
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
import { deviceHostStream, type DeviceFacts, type DevicePlacement } from '#events/df/devices.js';
import type { DeviceCommands } from '../devices/index.js';
import type { HostEnrolments } from './enrolments.js';
import { dataPlaneUrlKey } from '../core/data-plane.js';
import { PeriodicJob } from '../core/periodic.js';
import type { SessionEndReason } from '#events/df/sessions.js';

/** What the registry asks of the session side when a host or device goes away or misbehaves. */
export interface SessionEnder {
  /** Ends a session for a reason not of the user's making (device lost, host lost, crash). */
  endForDevice(sessionId: string, reason: SessionEndReason): Promise<void>;
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
  private readonly reaper = new PeriodicJob(
    () => this.reap(),
    (err) => this.deps.logger.warn({ err }, 'host reaper failed'),
  );
  /**
   * No host is declared lost before this time: right after a start (running agents get one time-out
   * to answer the service hello), and for the reconnection grace after this replica's bus came back.
   */
  private quietUntil: number;
  private offConnection: (() => void) | null = null;
  /** Per host, the device states this replica last reconciled (`state|sessionId`). */
  private readonly lastStates = new Map<string, Map<string, string>>();
  /** When this replica last wrote each host's liveness key. */
  private readonly refreshedAt = new Map<string, number>();
  /** `device|session` pairs one beat said lost their session; a second beat confirms it. */
  private readonly resetSuspects = new Map<string, number>();
  /** Per host, the newest heartbeat states waiting to be reconciled. */
  private readonly pendingBeats = new Map<string, { states: readonly DeviceState[]; receivedAt: number }>();
  /**
   * Hosts whose announced devices this replica failed to reconcile (a database error, say): their next
   * heartbeat is answered `known: false`, so the agent announces itself again and the work is retried.
   */
  private readonly announceAgain = new Set<string>();
  /**
   * Per host, the devices it announced that another host owns: their states are never remembered, so
   * each beat looks at them again and a device moved to this host comes online at its next beat.
   */
  private readonly refusedDevices = new Map<string, Set<string>>();
  /** Hosts revoked through this replica: never known again (their hellos are refused by the enrolment too). */
  private readonly revokedHosts = new Set<string>();
  /** Per host, the messages being handled (a host's messages are handled in the order they came). */
  private readonly intake = new KeyedQueue();
  /** Per host, the reconciliations (they run one after another). */
  private readonly queues = new KeyedQueue();
  /**
   * New devices are written a few at a time across all hosts: a hundred hosts announcing at once must
   * not queue thousands of writes ahead of the liveness writes their heartbeats need.
   */
  private readonly connectSlots = new Slots(CONNECT_CONCURRENCY);
  /** Heartbeats handled, and those that changed nothing (no database work). */
  readonly stats = { heartbeats: 0, unchangedHeartbeats: 0 };

  constructor(
    private readonly deps: {
      bus: MessageBus;
      kv: KeyValueStore;
      db: Database;
      devices: DeviceCommands;
      sessions: SessionEnder;
      enrolments: HostEnrolments;
      logger: Logger;
      hostTimeoutMs: number;
      /**
       * After this replica's own bus connection comes back, how long hosts have to heartbeat or announce
       * themselves again before they are declared lost (the outage was the platform's, not theirs).
       */
      reconnectGraceMs?: number;
      now: () => Date;
      /** Public keys (JWKS) of data-plane tokens, handed to every agent that says hello. */
      dataPlaneKeys?: { keys: readonly object[] };
    },
  ) {
    this.quietUntil = Date.now() + deps.hostTimeoutMs;
  }

  /** Subscribes to every host's reports, asks running agents to announce themselves, starts the reaper. */
  async start(): Promise<void> {
    const { bus } = this.deps;
    // A subscription hands its messages over one at a time: each is passed on to its host's own
    // intake queue at once, so a host whose writes are slow never holds another host's messages back.
    const on = (subject: string, handler: (msg: BusMessage) => Promise<void>) =>
      bus.subscribe(
        subject,
        (msg) => void this.intake.run(hostIdOf(msg.subject) ?? '', () => handler(msg).catch((err: unknown) => this.deps.logger.warn({ err, subject: msg.subject }, 'agent message failed'))),
        { queue: QUEUE },
      );
    this.subscriptions = await Promise.all([
      on(subjects.anyHello(), (m) => this.onHello(m)),
      on(subjects.anyHeartbeat(), (m) => this.onHeartbeat(m)),
      on(subjects.anyDevices(), (m) => this.onDevices(m)),
      on(subjects.anyBye(), (m) => this.onBye(m)),
    ]);
    await bus.publish(subjects.serviceHello(), new Uint8Array());
    this.offConnection = bus.onConnectionChange((up) => {
      if (up) {
        const graceMs = this.deps.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS;
        this.quietUntil = Math.max(this.quietUntil, Date.now() + graceMs);
        this.deps.logger.info({ graceMs }, 'message bus connection restored; hosts have a grace period to announce themselves again');
        // Agents announce themselves at their next beat anyway; this asks them at once.
        void bus.publish(subjects.serviceHello(), new Uint8Array()).catch(() => undefined);
      } else {
        this.deps.logger.warn('message bus connection lost; no host is declared lost until it is back');
      }
    });
    this.reaper.start(Math.max(100, Math.floor(this.deps.hostTimeoutMs / 3)));
  }

  async stop(): Promise<void> {
    this.offConnection?.();
    this.offConnection = null;
    const reaped = this.reaper.stop();
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    this.subscriptions = [];
    await reaped;
    await this.intake.idle();
    await this.queues.idle();
  }

  private context(hostId: string): CommandContext {
    return { actorId: `agent:${hostId}`, now: this.deps.now() };
  }

  private async onHello(msg: BusMessage): Promise<void> {
    const receivedAt = Date.now();
    const hello = this.parse(msg, Hello);
    if (!hello) return;
    const { hostId } = hello;
    const verdict = await this.deps.enrolments.verify(hostId, hello.token);
    if (!verdict.ok) {
      // Refused before anything is written: the host's devices never appear, and the agent is told why.
      this.deps.logger.warn({ hostId, code: verdict.code }, 'agent refused');
      this.forget(hostId);
      await this.deps.bus.respond(msg, fail(verdict.code, verdict.message));
      return;
    }
    await this.refresh(hostId, JSON.stringify({ nodeName: hello.nodeName, hubId: hello.hubId }), true);
    if (verdict.firstConnection) {
      // The hosts list stops showing it as waiting for its first connection; a failure is retried at its next hello.
      await this.deps.enrolments.firstConnection(hostId, hello.nodeName, { ...this.context(hostId), companyId: verdict.companyId }).catch((err: unknown) => this.deps.logger.warn({ err, hostId }, 'recording the first connection failed'));
    }
    if (hello.dataPlaneUrl) await this.deps.kv.set(dataPlaneUrlKey(hostId), hello.dataPlaneUrl);
    else await this.deps.kv.delete(dataPlaneUrlKey(hostId));
    // What this replica remembers of the host is replaced by what the hello restates, at once: beats
    // restating the same while the hello is reconciled are covered by it (after it, only the states it
    // confirmed are kept; if it fails, nothing is).
    this.remember(hostId, hello.states, true);
    // Answered at once: reconciling a large host can take longer than the agent waits for the answer,
    // and an unanswered hello would only be repeated. The work is queued per host, in order.
    await this.deps.bus.respond(msg, ok({ known: true, ...(this.deps.dataPlaneKeys ? { dataPlaneKeys: this.deps.dataPlaneKeys } : {}) }));
    const placement: DevicePlacement = { hostId, nodeName: hello.nodeName, hubId: hello.hubId, companyId: verdict.companyId, workspaceIds: verdict.workspaceIds };
    void this.serially(hostId, async () => {
      await this.retryOnFailure(hostId, () => this.reconcileDevices(placement, hello.devices));
      const unconfirmed = await this.reconcileStates(hostId, hello.states, { reconnect: false, receivedAt });
      this.remember(hostId, hello.states.filter((st) => !unconfirmed.has(st.deviceId)), true);
      this.deps.logger.info({ hostId, devices: hello.devices.length }, 'agent announced');
    });
  }

  private async onHeartbeat(msg: BusMessage): Promise<void> {
    const beat = this.parse(msg, Heartbeat);
    if (!beat) return;
    const { hostId } = beat;
    const known = this.announceAgain.delete(hostId) || this.revokedHosts.has(hostId) ? null : await this.deps.kv.get(hostKey(hostId));
    if (known === null) {
      // Declared lost, never announced to this installation, or its devices failed to reconcile: the
      // host must announce itself again.
      this.forget(hostId);
      await this.deps.bus.respond(msg, ok({ known: false }));
      return;
    }
    await this.refresh(hostId, known, false);
    await this.deps.bus.respond(msg, ok({ known: true }));
    // Only what changed since the states this replica last reconciled: an unchanged beat costs no
    // database work and writes nothing.
    this.stats.heartbeats++;
    if (this.changedStates(hostId, beat.states).length === 0) {
      this.stats.unchangedHeartbeats++;
      return;
    }
    // The newest beat wins: a beat waiting behind a slow reconciliation is replaced, never replayed late.
    const queued = this.pendingBeats.has(hostId);
    this.pendingBeats.set(hostId, { states: beat.states, receivedAt: Date.now() });
    if (queued) return;
    void this.serially(hostId, async () => {
      const pending = this.pendingBeats.get(hostId) ?? { states: [], receivedAt: Date.now() };
      this.pendingBeats.delete(hostId);
      const changed = this.changedStates(hostId, pending.states);
      const unconfirmed = await this.reconcileStates(hostId, changed, { reconnect: true, receivedAt: pending.receivedAt });
      this.remember(hostId, changed.filter((st) => !unconfirmed.has(st.deviceId)), false);
    });
  }

  private changedStates(hostId: string, states: readonly DeviceState[]): readonly DeviceState[] {
    const last = this.lastStates.get(hostId);
    return last ? states.filter((s) => last.get(s.deviceId) !== stateKey(s)) : states;
  }

  private async onDevices(msg: BusMessage): Promise<void> {
    const receivedAt = Date.now();
    const report = this.parse(msg, DevicesReport);
    if (!report) return;
    const known = await this.deps.kv.get(hostKey(report.hostId));
    if (known === null) return;
    const { nodeName, hubId } = JSON.parse(known) as { nodeName: string; hubId: string };
    void this.serially(report.hostId, async () => {
      // Placed where the enrolment says now (it may have been re-scoped since the hello).
      const verdict = await this.deps.enrolments.scopeOf(report.hostId);
      if (!verdict) return;
      const placement: DevicePlacement = { hostId: report.hostId, nodeName, hubId, ...verdict };
      await this.retryOnFailure(report.hostId, () => this.reconcileDevices(placement, report.devices));
      const unconfirmed = await this.reconcileStates(report.hostId, report.states, { reconnect: false, receivedAt });
      this.remember(report.hostId, report.states.filter((st) => !unconfirmed.has(st.deviceId)), true);
    });
  }

  /**
   * A revoked host: its liveness is dropped (its next heartbeat is answered `known: false`, and its
   * hello is refused), its devices go offline and their sessions end.
   */
  async revoked(hostId: string): Promise<void> {
    this.revokedHosts.add(hostId);
    await this.deps.kv.delete(hostKey(hostId));
    this.forget(hostId);
    await this.serially(hostId, () => this.hostLost(hostId, 'host-revoked'));
  }

  /**
   * Moves a device of the company to another of its live hosts: `DeviceMoved` on the device's stream
   * (offline until that host reports it; from then on only that host speaks for it). A host of another
   * company, or none, is 404; a revoked one 409; a device in a session 409 `DEVICE_BUSY`.
   */
  async moveDevice(deviceId: string, toHostId: string, context: CommandContext & { companyId: number }) {
    const target = await this.deps.enrolments.state(toHostId);
    if (target.hostId === null || target.companyId !== context.companyId) throw new AppError('NOT_FOUND', 'Host not found');
    if (target.revoked) throw new AppError('HOST_REVOKED', 'The host is revoked; a device cannot be moved to it');
    const { state } = await this.deps.devices.load(deviceId);
    const live = await this.deps.kv.get(hostKey(toHostId));
    const where = live ? (JSON.parse(live) as { nodeName: string; hubId: string }) : { nodeName: state.placement?.nodeName ?? toHostId, hubId: state.placement?.hubId ?? toHostId };
    const placement: DevicePlacement = { hostId: toHostId, nodeName: where.nodeName, hubId: where.hubId, companyId: context.companyId, workspaceIds: target.workspaceIds };
    const result = await this.deps.devices.run({ type: 'MoveDevice', deviceId, companyId: context.companyId, placement }, context);
    if (result.events.length > 0) this.deps.logger.info({ deviceId, fromHostId: state.placement?.hostId, toHostId }, 'device moved to another host');
    return result;
  }

  private async onBye(msg: BusMessage): Promise<void> {
    const bye = this.parse(msg, Bye);
    if (!bye) return;
    await this.deps.kv.delete(hostKey(bye.hostId));
    this.forget(bye.hostId);
    void this.serially(bye.hostId, () => this.hostLost(bye.hostId, 'host-stopped'));
  }

  /**
   * Keeps the host's liveness key alive. The key lives a fifth longer than the host time-out and is
   * rewritten only when a fifth of the time-out has passed since this replica last wrote it, so a host
   * is declared lost between one and 1.2 time-outs after its last beat, and most beats write nothing.
   */
  private async refresh(hostId: string, value: string, force: boolean): Promise<void> {
    const now = Date.now();
    const slice = this.deps.hostTimeoutMs / 5;
    if (!force && now - (this.refreshedAt.get(hostId) ?? 0) < slice) return;
    await this.deps.kv.set(hostKey(hostId), value, { ttlMs: this.deps.hostTimeoutMs + slice });
    this.refreshedAt.set(hostId, now);
  }

  /** Runs `work`; when it fails, the host is asked to announce itself again at its next heartbeat. */
  private async retryOnFailure(hostId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.announceAgain.add(hostId);
      throw err;
    }
  }

  /**
   * Runs the host's reconciliations one after another (a hello's before the beats that follow it).
   * Message handlers queue the work and return: a bus subscription hands over its messages one at a
   * time, so awaiting one host's reconciliation there would hold every other host's heartbeats back
   * (and let their liveness keys expire) while a large host registers. The returned promise never
   * rejects; `stop` waits for every queue.
   */
  private serially(hostId: string, work: () => Promise<void>): Promise<void> {
    return this.queues.run(hostId, () =>
      work().catch((err: unknown) => {
        // Not reconciled: forget the host's states, so the next beat compares everything again.
        this.lastStates.delete(hostId);
        this.deps.logger.warn({ err, hostId }, 'reconciling a host failed');
      }),
    );
  }

  private remember(hostId: string, states: readonly DeviceState[], replace: boolean): void {
    let known = this.lastStates.get(hostId);
    if (!known || replace) {
      known = new Map();
      this.lastStates.set(hostId, known);
    }
    const refused = this.refusedDevices.get(hostId);
    for (const s of states) if (!refused?.has(s.deviceId)) known.set(s.deviceId, stateKey(s));
  }

  private forget(hostId: string): void {
    this.lastStates.delete(hostId);
    this.refusedDevices.delete(hostId);
    this.pendingBeats.delete(hostId);
    this.refreshedAt.delete(hostId);
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

  /**
   * Devices the host has are connected: new devices and devices whose facts or placement changed get a
   * `DeviceConnected` each; known devices that were offline come back in one `HostDevicesReconnected`;
   * devices the host no longer has go offline in one `HostDevicesDisconnected`. A device another host
   * owns is left as it is: the device decider refuses the claim (recorded once per claiming host), and
   * the host's states of it are not remembered (`refusedDevices`).
   */
  private async reconcileDevices(placement: DevicePlacement, devices: readonly DeviceInfo[]): Promise<void> {
    const context = this.context(placement.hostId);
    const rows = new Map((await inventoryOfHost(this.deps.db, placement.hostId)).map((r) => [r.deviceId, r]));
    const reported = new Set(devices.map((d) => d.deviceId));
    const connect: DeviceInfo[] = [];
    const back: string[] = [];
    for (const info of devices) {
      const row = rows.get(info.deviceId);
      if (!row || !sameFacts(row, info, placement)) connect.push(info);
      else if (row.status === 'offline') back.push(info.deviceId);
    }
    // The read model may not show a loss yet: a host whose last batch took devices offline has those
    // devices brought back too (the batch is a no-op for devices that are online).
    const lastBatch = (await this.deps.devices.store.readStream(deviceHostStream(placement.hostId))).at(-1);
    if (lastBatch?.type === 'HostDevicesDisconnected') {
      for (const id of (lastBatch.payload as { deviceIds: string[] }).deviceIds) {
        const row = rows.get(id);
        const info = devices.find((d) => d.deviceId === id);
        if (row && info && sameFacts(row, info, placement) && !back.includes(id)) back.push(id);
      }
    }
    const refused = new Set<string>();
    await Promise.all(
      connect.map((info) =>
        this.connectSlots.run(async () => {
          const result = await this.deps.devices.run({ type: 'ConnectDevice', deviceId: info.deviceId, facts: factsOf(info), placement }, context);
          const owner = result.state.placement?.hostId;
          if (owner === placement.hostId) return;
          refused.add(info.deviceId);
          this.deps.logger.warn({ hostId: placement.hostId, deviceId: info.deviceId, ownerHostId: owner }, 'a host announced a device of another host; refused');
        }),
      ),
    );
    await this.deps.devices.hostBatch({ type: 'reconnect', hostId: placement.hostId, deviceIds: back }, context);
    const gone = [...rows.values()].filter((r) => !reported.has(r.deviceId) && r.status !== 'offline').map((r) => r.deviceId);
    await this.deps.devices.hostBatch({ type: 'disconnect', hostId: placement.hostId, deviceIds: gone, reason: 'removed-from-host' }, context);
    await this.endSessionsOn(gone, 'device-disconnected');
    if (refused.size > 0) this.refusedDevices.set(placement.hostId, refused);
    else this.refusedDevices.delete(placement.hostId);
  }

  /**
   * Compares what each worker says with what the platform believes: a device reported by a host the
   * read model shows offline comes back (in one batch); a broken device goes to maintenance (ending its
   * session); a device that holds a session the platform has closed is told to drop it; an open session
   * whose device no longer holds it (the agent restarted) is ended.
   */
  private async reconcileStates(hostId: string, states: readonly DeviceState[], options: { reconnect: boolean; receivedAt: number }): Promise<Set<string>> {
    const { receivedAt } = options;
    const unconfirmed = new Set<string>();
    if (states.length === 0) return unconfirmed;
    const context = this.context(hostId);
    const rows = new Map((await devicesOfHost(this.deps.db, hostId)).map((r) => [r.deviceId, r]));
    if (options.reconnect) {
      const back = states.filter((s) => rows.get(s.deviceId)?.status === 'offline').map((s) => s.deviceId);
      await this.deps.devices.hostBatch({ type: 'reconnect', hostId, deviceIds: back }, context);
    }
    for (const s of states) {
      const row = rows.get(s.deviceId);
      if (!row) continue;
      // A device this host was refused that is its own now (moved here): settled from now on.
      this.refusedDevices.get(hostId)?.delete(s.deviceId);
      const broken = s.state === 'broken';
      if ((row.health === 'broken') !== broken) {
        await this.deps.devices.run({ type: 'ReportDeviceHealth', deviceId: s.deviceId, hostId, health: broken ? 'broken' : 'ok', reason: s.detail ?? s.state }, context);
      }
      if (broken && row.sessionId) await this.deps.sessions.endForDevice(row.sessionId, 'device-error');
      if (s.sessionId && s.sessionId !== row.sessionId && !(await this.deps.sessions.isOpen(s.sessionId))) {
        await this.deps.sessions.releaseStale({ hostId, deviceId: s.deviceId, sessionId: s.sessionId });
      }
      if (row.sessionId && s.state === 'ready' && s.sessionId === null && (await this.deps.sessions.isOpen(row.sessionId))) {
        const open = await openSessionsOnDevices(this.deps.db, [s.deviceId]);
        if (open.some((o) => o.id === row.sessionId && o.status === 'active')) {
          // A beat may have left the agent before the session started: only a second beat saying the
          // same (sent after this one was handled) proves the device lost its session.
          const suspect = `${s.deviceId}|${row.sessionId}`;
          const since = this.resetSuspects.get(suspect);
          if (since !== undefined && receivedAt > since) {
            this.resetSuspects.delete(suspect);
            await this.deps.sessions.endForDevice(row.sessionId, 'device-reset');
          } else {
            if (since === undefined) this.resetSuspects.set(suspect, Date.now());
            unconfirmed.add(s.deviceId);
          }
        }
      }
    }
    return unconfirmed;
  }

  /** Takes the devices of hosts whose liveness key expired offline. */
  private async reap(): Promise<void> {
    // Silence heard through a bus that is down says nothing about the hosts.
    if (!this.deps.bus.connected || Date.now() < this.quietUntil) return;
    for (const hostId of await hostsWithOnlineDevices(this.deps.db)) {
      if ((await this.deps.kv.get(hostKey(hostId))) !== null) continue;
      if (!this.deps.bus.connected || Date.now() < this.quietUntil) return;
      this.deps.logger.warn({ hostId }, 'host missed its heartbeats; its devices go offline');
      this.forget(hostId);
      await this.serially(hostId, () => this.hostLost(hostId, 'heartbeat-missed'));
    }
  }

  /** Takes every device of the host offline in one append, then ends their open sessions. */
  private async hostLost(hostId: string, reason: 'heartbeat-missed' | 'host-stopped' | 'host-revoked'): Promise<void> {
    const lost = (await devicesOfHost(this.deps.db, hostId)).filter((r) => r.status !== 'offline').map((r) => r.deviceId);
    await this.deps.devices.hostBatch({ type: 'disconnect', hostId, deviceIds: lost, reason }, this.context(hostId));
    await this.endSessionsOn(lost, reason === 'heartbeat-missed' ? 'host-lost' : reason);
  }

  private async endSessionsOn(deviceIds: readonly string[], reason: SessionEndReason): Promise<void> {
    if (deviceIds.length === 0) return;
    for (const s of await openSessionsOnDevices(this.deps.db, deviceIds)) {
      await this.deps.sessions.endForDevice(s.id, reason).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: s.id }, 'ending a session failed'));
    }
  }
}

const CONNECT_CONCURRENCY = 8;
const DEFAULT_RECONNECT_GRACE_MS = 60_000;

/** What a worker reports that matters to the platform: its state and its session. */
const stateKey = (s: DeviceState) => `${s.state}|${s.sessionId ?? ''}`;

function sameFacts(row: HostDeviceRow, info: DeviceInfo, placement: DevicePlacement): boolean {
  const f = row.facts;
  const p = row.placement;
  return (
    f.name === info.name &&
    f.platform === info.platform &&
    f.osVersion === info.osVersion &&
    f.model === info.model &&
    f.manufacturer === info.manufacturer &&
    f.type === info.type &&
    f.isRealDevice === info.isRealDevice &&
    f.provider === info.provider &&
    f.screen.width === info.screen.width &&
    f.screen.height === info.screen.height &&
    f.screen.scale === info.screen.scale &&
    // The read model's JSON does not keep the order of keys.
    sameJson(f.capabilities ?? null, info.capabilities ?? null) &&
    p.hostId === placement.hostId &&
    p.nodeName === placement.nodeName &&
    p.hubId === placement.hubId &&
    p.companyId === placement.companyId &&
    sameJson(p.workspaceIds ?? null, placement.workspaceIds ?? null)
  );
}
