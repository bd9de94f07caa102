import type { Logger } from 'pino';
import { devicesOfHost, inventoryOfHost } from '#projections/df-devices/index.js';
import { openSessionsOnDevices } from '#projections/df-sessions/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import { KeyedQueue, Slots } from '#shared/concurrency.js';
import type { Database } from '#shared/db/index.js';
import { commandContext, type CommandContext } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import type { DeviceInfo, WorkerState } from '#shared/wire/index.js';
import { deviceHostStream, type DevicePlacement } from '#events/df/devices.js';
import type { SessionEndReason } from '#events/df/sessions.js';
import type { DeviceCommands } from '../devices/index.js';
import type { HostEnrolments } from './enrolments.js';
import { HostIntake, agentActor } from './intake.js';
import { HostLiveness } from './liveness.js';
import { HostMemory } from './memory.js';
import { devicesToAskActive, reconcile, sessionsToAsk, suspectKey, type ReconcileAction } from './reconcile.js';

/** What the registry asks of the session side when a host or device goes away or misbehaves. */
export interface SessionEnder {
  /** Ends a session for a reason not of the user's making (device lost, host lost, crash). */
  endForDevice(sessionId: string, reason: SessionEndReason): Promise<void>;
  /** Tells a device to drop a session the platform no longer has (stale after a restart). */
  releaseStale(target: { hostId: string; deviceId: string; sessionId: string }): Promise<void>;
  /** Whether the session is still open in the event store (not just the read model). */
  isOpen(sessionId: string): Promise<boolean>;
}

const CONNECT_CONCURRENCY = 8;

type ConnectAction = Extract<ReconcileAction, { kind: 'connect' }>;
type OtherAction = Exclude<ReconcileAction, ConnectAction>;

/**
 * Turns what agents report into device events. Hosts register and report through the intake
 * (`intake.ts`); which hosts are alive is the liveness (`liveness.ts`); what a report asks to be done is
 * the pure `reconcile` (`reconcile.ts`). The registry reads what the platform holds, does what
 * `reconcile` answers, one host's work after another, and takes the devices of lost hosts offline.
 */
export class HostRegistry {
  private readonly memory = new HostMemory();
  private readonly liveness: HostLiveness;
  private readonly intake: HostIntake;
  /** Per host, the reconciliations (they run one after another). */
  private readonly queues = new KeyedQueue();
  /**
   * New devices are written a few at a time across all hosts: a hundred hosts announcing at once must
   * not queue thousands of writes ahead of the liveness writes their heartbeats need.
   */
  private readonly connectSlots = new Slots(CONNECT_CONCURRENCY);

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
      /** The platform's clock (read at each use): liveness and the time of every event. */
      clock: { now(): Date };
      /** Public keys (JWKS) of data-plane tokens, handed to every agent that says hello. */
      dataPlaneKeys?: { keys: readonly object[] };
      /**
       * Devices that joined their host's agent, once recorded: every device of a hello (the agent started,
       * or announced itself again), and the devices a report adds or brings back. Not awaited.
       */
      joined?: (hostId: string, deviceIds: string[]) => void;
    },
  ) {
    this.liveness = new HostLiveness({
      ...deps,
      lost: (hostId) => {
        this.forget(hostId);
        return this.serially(hostId, () => this.hostLost(hostId, 'heartbeat-missed'));
      },
    });
    this.intake = new HostIntake({ ...deps, liveness: this.liveness, memory: this.memory, work: this });
  }

  /** Heartbeats handled, and those that changed nothing (no database work). */
  get stats(): { readonly heartbeats: number; readonly unchangedHeartbeats: number } {
    return this.intake.stats;
  }

  /** Subscribes to every host's reports, asks running agents to announce themselves, starts the reaper. */
  async start(): Promise<void> {
    await this.intake.start();
    this.liveness.start();
  }

  async stop(): Promise<void> {
    const reaped = this.liveness.stop();
    await this.intake.stop();
    await reaped;
    await this.intake.idle();
    await this.queues.idle();
  }

  /**
   * A revoked host: its liveness is dropped (its next heartbeat is answered `known: false`, and its
   * hello is refused), its devices go offline and their sessions end.
   */
  async revoked(hostId: string): Promise<void> {
    this.memory.revokedHosts.add(hostId);
    await this.liveness.drop(hostId);
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
    const where = (await this.liveness.whereabouts(toHostId)) ?? { nodeName: state.placement?.nodeName ?? toHostId, hubId: state.placement?.hubId ?? toHostId };
    const placement: DevicePlacement = { hostId: toHostId, nodeName: where.nodeName, hubId: where.hubId, companyId: context.companyId, workspaceIds: target.workspaceIds };
    const result = await this.deps.devices.run({ type: 'MoveDevice', deviceId, companyId: context.companyId, placement }, context);
    if (result.events.length > 0) this.deps.logger.info({ deviceId, fromHostId: state.placement?.hostId, toHostId }, 'device moved to another host');
    return result;
  }

  /**
   * Runs the host's reconciliations one after another (a hello's before the beats that follow it).
   * Message handlers queue the work and return: a bus subscription hands over its messages one at a
   * time, so awaiting one host's reconciliation there would hold every other host's heartbeats back
   * (and let their liveness keys expire) while a large host registers. The returned promise never
   * rejects; `stop` waits for every queue.
   */
  serially(hostId: string, work: () => Promise<void>): Promise<void> {
    return this.queues.run(hostId, () =>
      work().catch((err: unknown) => {
        // Not reconciled: forget the host's states, so the next beat compares everything again.
        this.memory.forgetStates(hostId);
        this.deps.logger.warn({ err, hostId }, 'reconciling a host failed');
      }),
    );
  }

  forget(hostId: string): void {
    this.memory.forget(hostId);
    this.liveness.forget(hostId);
  }

  /**
   * Records the devices the host has (`reconcile`'s inventory actions). A device another host owns is
   * left as it is: the device decider refuses the claim (recorded once per claiming host), and the
   * host's states of it are not remembered.
   */
  async reconcileInventory(placement: DevicePlacement, devices: readonly DeviceInfo[], options: { hello: boolean } = { hello: false }): Promise<void> {
    const { hostId } = placement;
    const rows = new Map((await inventoryOfHost(this.deps.db, hostId)).map((r) => [r.deviceId, r]));
    const lastBatch = (await this.deps.devices.store.readStream(deviceHostStream(hostId))).at(-1);
    const lastDisconnected = lastBatch?.type === 'HostDevicesDisconnected' ? (lastBatch.payload as { deviceIds: string[] }).deviceIds : undefined;
    const actions = reconcile({ rows, ...(lastDisconnected ? { lastDisconnected } : {}) }, { kind: 'inventory', placement, devices });
    const context = commandContext(this.deps.clock, agentActor(hostId));
    const refused = new Set<string>();
    const connects = actions.filter((a): a is ConnectAction => a.kind === 'connect');
    await Promise.all(connects.map((a) => this.connectSlots.run(async () => (await this.connect(a, context)) || refused.add(a.deviceId))));
    await this.perform(hostId, actions.filter((a): a is OtherAction => a.kind !== 'connect'), context, new Set());
    this.memory.setRefused(hostId, refused);
    const came = options.hello ? devices.map((d) => d.deviceId) : [...connects.map((a) => a.deviceId), ...actions.flatMap((a) => (a.kind === 'reconnect' ? a.deviceIds : []))];
    const joined = came.filter((id) => !refused.has(id));
    if (joined.length > 0) this.deps.joined?.(hostId, joined);
  }

  /** Connects a device; false when another host owns it (refused). */
  private async connect(action: ConnectAction, context: CommandContext): Promise<boolean> {
    const { hostId } = action.placement;
    const result = await this.deps.devices.run({ type: 'ConnectDevice', deviceId: action.deviceId, facts: action.facts, placement: action.placement }, context);
    const owner = result.state.placement?.hostId;
    if (owner === hostId) return true;
    this.deps.logger.warn({ hostId, deviceId: action.deviceId, ownerHostId: owner }, 'a host announced a device of another host; refused');
    return false;
  }

  /**
   * Compares what each worker says with what the platform believes (`reconcile`'s state actions);
   * answers the devices whose state is not settled yet.
   */
  async reconcileStates(hostId: string, states: readonly WorkerState[], options: { reconnect: boolean; receivedAt: number }): Promise<Set<string>> {
    const unconfirmed = new Set<string>();
    if (states.length === 0) return unconfirmed;
    const rows = new Map((await devicesOfHost(this.deps.db, hostId)).map((r) => [r.deviceId, r]));
    const openSessions = new Set<string>();
    for (const id of sessionsToAsk(rows, states)) if (await this.deps.sessions.isOpen(id)) openSessions.add(id);
    const asked = devicesToAskActive(rows, states, openSessions);
    const open = asked.length > 0 ? await openSessionsOnDevices(this.deps.db, asked) : [];
    const activeSessions = new Set(open.filter((o) => o.status === 'active').map((o) => o.id));
    const refused = this.memory.refused(hostId);
    const view = { rows, openSessions, activeSessions, resetSuspects: this.memory.resetSuspects, ...(refused ? { refused } : {}) };
    const actions = reconcile(view, { kind: 'states', states, ...options });
    await this.perform(hostId, actions.filter((a): a is OtherAction => a.kind !== 'connect'), commandContext(this.deps.clock, agentActor(hostId)), unconfirmed);
    return unconfirmed;
  }

  /** Does what `reconcile` answered, in order (connections excepted: `reconcileInventory` runs them side by side). */
  private async perform(hostId: string, actions: readonly OtherAction[], context: CommandContext, unconfirmed: Set<string>): Promise<void> {
    const { devices, sessions } = this.deps;
    for (const action of actions) {
      switch (action.kind) {
        case 'reconnect':
          await devices.hostBatch({ type: 'reconnect', hostId, deviceIds: action.deviceIds }, context);
          break;
        case 'disconnect':
          await devices.hostBatch({ type: 'disconnect', hostId, deviceIds: action.deviceIds, reason: action.reason }, context);
          break;
        case 'end-sessions-on':
          await this.endSessionsOn(action.deviceIds, action.reason);
          break;
        case 'accept-device':
          this.memory.accept(hostId, action.deviceId);
          break;
        case 'report-health':
          await devices.run({ type: 'ReportDeviceHealth', deviceId: action.deviceId, hostId, health: action.health, reason: action.reason }, context);
          break;
        case 'end-session':
          await sessions.endForDevice(action.sessionId, action.reason);
          break;
        case 'release-stale':
          await sessions.releaseStale({ hostId, deviceId: action.deviceId, sessionId: action.sessionId });
          break;
        case 'suspect-reset': {
          const key = suspectKey(action.deviceId, action.sessionId);
          if (!this.memory.resetSuspects.has(key)) this.memory.resetSuspects.set(key, this.liveness.now());
          unconfirmed.add(action.deviceId);
          break;
        }
        case 'confirm-reset':
          this.memory.resetSuspects.delete(suspectKey(action.deviceId, action.sessionId));
          await sessions.endForDevice(action.sessionId, 'device-reset');
          break;
      }
    }
  }

  /** Takes every device of the host offline in one append, then ends their open sessions. */
  async hostLost(hostId: string, reason: 'heartbeat-missed' | 'host-stopped' | 'host-revoked'): Promise<void> {
    const lost = (await devicesOfHost(this.deps.db, hostId)).filter((r) => r.status !== 'offline').map((r) => r.deviceId);
    await this.deps.devices.hostBatch({ type: 'disconnect', hostId, deviceIds: lost, reason }, commandContext(this.deps.clock, agentActor(hostId)));
    await this.endSessionsOn(lost, reason === 'heartbeat-missed' ? 'host-lost' : reason);
  }

  private async endSessionsOn(deviceIds: readonly string[], reason: SessionEndReason): Promise<void> {
    if (deviceIds.length === 0) return;
    for (const s of await openSessionsOnDevices(this.deps.db, deviceIds)) {
      await this.deps.sessions.endForDevice(s.id, reason).catch((err: unknown) => this.deps.logger.warn({ err, sessionId: s.id }, 'ending a session failed'));
    }
  }
}
