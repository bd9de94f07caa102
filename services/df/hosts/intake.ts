import type { Logger } from 'pino';
import type { BusMessage, BusSubscription, MessageBus } from '#shared/bus/index.js';
import { KeyedQueue } from '#shared/concurrency.js';
import { commandContext, type CommandActor } from '#shared/es/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import { Bye, DevicesReport, Heartbeat, Hello, PROTOCOL_VERSION, decode, fail, hostIdOf, ok, subjects, type DeviceInfo, type WorkerState } from '#shared/wire/index.js';
import type { DevicePlacement } from '#events/df/devices.js';
import { dataPlaneUrlKey } from '../core/data-plane.js';
import type { HostEnrolments } from './enrolments.js';
import type { HostLiveness } from './liveness.js';
import type { HostMemory } from './memory.js';

const QUEUE = 'df-service';

/** What the intake hands the registry: the writes that follow from a host's messages. */
export interface HostWork {
  /** Runs the host's work after its earlier work; never rejects. */
  serially(hostId: string, work: () => Promise<void>): Promise<void>;
  /** Records the devices the host has (throws when writing fails; the host announces itself again); `hello`: its agent (re)started or announced itself again. */
  reconcileInventory(placement: DevicePlacement, devices: readonly DeviceInfo[], options: { hello: boolean }): Promise<void>;
  /** Reconciles the workers' states; answers the devices whose state is not settled yet (not to be remembered). */
  reconcileStates(hostId: string, states: readonly WorkerState[], options: { reconnect: boolean; receivedAt: number }): Promise<Set<string>>;
  /** The host stopped: its devices go offline and their sessions end. */
  hostLost(hostId: string, reason: 'host-stopped'): Promise<void>;
  /** Forgets what this replica remembers of the host. */
  forget(hostId: string): void;
}

export interface HostIntakeDeps {
  bus: MessageBus;
  kv: KeyValueStore;
  enrolments: HostEnrolments;
  logger: Logger;
  liveness: HostLiveness;
  memory: HostMemory;
  work: HostWork;
  /** The platform's clock, read at each use. */
  clock: { now(): Date };
  /** Public keys (JWKS) of data-plane tokens, handed to every agent that says hello. */
  dataPlaneKeys?: { keys: readonly object[] };
}

/** Who acts in what a host's agent causes: the agent. */
export function agentActor(hostId: string, companyId?: number | null): CommandActor {
  return { actorId: `agent:${hostId}`, ...(companyId !== undefined ? { companyId } : {}) };
}

/**
 * Hosts and their devices registering and reporting: hellos, heartbeats, device reports and goodbyes.
 * Each message goes to its host's own queue at once, so hosts are handled side by side; what a message
 * asks to be written is queued per host with the registry (`HostWork.serially`), so the answer never
 * waits for a large host's reconciliation.
 */
export class HostIntake {
  private subscriptions: BusSubscription[] = [];
  /** Per host, the messages being handled (a host's messages are handled in the order they came). */
  private readonly queue = new KeyedQueue();
  /** Heartbeats handled, and those that changed nothing (no database work). */
  readonly stats = { heartbeats: 0, unchangedHeartbeats: 0 };

  constructor(private readonly deps: HostIntakeDeps) {}

  /** Subscribes to every host's reports and asks running agents to announce themselves. */
  async start(): Promise<void> {
    const { bus } = this.deps;
    // A subscription hands its messages over one at a time: each is passed on to its host's own
    // intake queue at once, so a host whose writes are slow never holds another host's messages back.
    const on = (subject: string, handler: (msg: BusMessage) => Promise<void>) =>
      bus.subscribe(
        subject,
        (msg) => void this.queue.run(hostIdOf(msg.subject) ?? '', () => handler(msg).catch((err: unknown) => this.deps.logger.warn({ err, subject: msg.subject }, 'agent message failed'))),
        { queue: QUEUE },
      );
    this.subscriptions = await Promise.all([
      on(subjects.anyHello(), (m) => this.onHello(m)),
      on(subjects.anyHeartbeat(), (m) => this.onHeartbeat(m)),
      on(subjects.anyDevices(), (m) => this.onDevices(m)),
      on(subjects.anyBye(), (m) => this.onBye(m)),
    ]);
    await bus.publish(subjects.serviceHello(), new Uint8Array());
  }

  /** Takes no more messages (those taken in are still handled: `idle`). */
  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe().catch(() => undefined)));
    this.subscriptions = [];
  }

  /** Resolves once every message taken in so far has been handled. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async onHello(msg: BusMessage): Promise<void> {
    const { liveness, memory, work } = this.deps;
    const receivedAt = liveness.now();
    const hello = this.parse(msg, Hello);
    if (!hello) return;
    const { hostId } = hello;
    const verdict = await this.deps.enrolments.verify(hostId, hello.token);
    if (!verdict.ok) {
      // Refused before anything is written: the host's devices never appear, and the agent is told why.
      this.deps.logger.warn({ hostId, code: verdict.code }, 'agent refused');
      work.forget(hostId);
      await this.deps.bus.respond(msg, fail(verdict.code, verdict.message));
      return;
    }
    await liveness.refresh(hostId, hello, true);
    if (verdict.firstConnection) {
      // The hosts list stops showing it as waiting for its first connection; a failure is retried at its next hello.
      await this.deps.enrolments.firstConnection(hostId, hello.nodeName, commandContext(this.deps.clock, agentActor(hostId, verdict.companyId))).catch((err: unknown) => this.deps.logger.warn({ err, hostId }, 'recording the first connection failed'));
    }
    if (hello.dataPlaneUrl) await this.deps.kv.set(dataPlaneUrlKey(hostId), hello.dataPlaneUrl);
    else await this.deps.kv.delete(dataPlaneUrlKey(hostId));
    // What this replica remembers of the host is replaced by what the hello restates, at once: beats
    // restating the same while the hello is reconciled are covered by it (after it, only the states it
    // confirmed are kept; if it fails, nothing is).
    memory.remember(hostId, hello.states, true);
    // Answered at once: reconciling a large host can take longer than the agent waits for the answer,
    // and an unanswered hello would only be repeated. The work is queued per host, in order.
    await this.deps.bus.respond(msg, ok({ known: true, ...(this.deps.dataPlaneKeys ? { dataPlaneKeys: this.deps.dataPlaneKeys } : {}) }));
    const placement: DevicePlacement = { hostId, nodeName: hello.nodeName, hubId: hello.hubId, companyId: verdict.companyId, workspaceIds: verdict.workspaceIds };
    void work.serially(hostId, async () => {
      await this.announced(placement, hello.devices, hello.states, receivedAt, true);
      this.deps.logger.info({ hostId, devices: hello.devices.length }, 'agent announced');
    });
  }

  private async onHeartbeat(msg: BusMessage): Promise<void> {
    const { liveness, memory, work } = this.deps;
    const beat = this.parse(msg, Heartbeat);
    if (!beat) return;
    const { hostId } = beat;
    const known = memory.announceAgain.delete(hostId) || memory.revokedHosts.has(hostId) ? null : await liveness.whereabouts(hostId);
    if (known === null) {
      // Declared lost, never announced to this installation, or its devices failed to reconcile: the
      // host must announce itself again.
      work.forget(hostId);
      await this.deps.bus.respond(msg, ok({ known: false }));
      return;
    }
    await liveness.refresh(hostId, known, false);
    await this.deps.bus.respond(msg, ok({ known: true }));
    // Only what changed since the states this replica last reconciled: an unchanged beat costs no
    // database work and writes nothing.
    this.stats.heartbeats++;
    if (memory.changedStates(hostId, beat.states).length === 0) {
      this.stats.unchangedHeartbeats++;
      return;
    }
    // The newest beat wins: a beat waiting behind a slow reconciliation is replaced, never replayed late.
    const queued = memory.pendingBeats.has(hostId);
    memory.pendingBeats.set(hostId, { states: beat.states, receivedAt: liveness.now() });
    if (queued) return;
    void work.serially(hostId, async () => {
      const pending = memory.pendingBeats.get(hostId) ?? { states: [], receivedAt: liveness.now() };
      memory.pendingBeats.delete(hostId);
      const changed = memory.changedStates(hostId, pending.states);
      const unconfirmed = await work.reconcileStates(hostId, changed, { reconnect: true, receivedAt: pending.receivedAt });
      memory.remember(hostId, changed.filter((st) => !unconfirmed.has(st.deviceId)), false);
    });
  }

  private async onDevices(msg: BusMessage): Promise<void> {
    const receivedAt = this.deps.liveness.now();
    const report = this.parse(msg, DevicesReport);
    if (!report) return;
    const where = await this.deps.liveness.whereabouts(report.hostId);
    if (where === null) return;
    void this.deps.work.serially(report.hostId, async () => {
      // Placed where the enrolment says now (it may have been re-scoped since the hello).
      const verdict = await this.deps.enrolments.scopeOf(report.hostId);
      if (!verdict) return;
      const placement: DevicePlacement = { hostId: report.hostId, nodeName: where.nodeName, hubId: where.hubId, ...verdict };
      await this.announced(placement, report.devices, report.states, receivedAt, false);
    });
  }

  /** The devices a hello or a report lists, then their states; only the settled states are remembered. */
  private async announced(placement: DevicePlacement, devices: readonly DeviceInfo[], states: readonly WorkerState[], receivedAt: number, hello: boolean): Promise<void> {
    const { hostId } = placement;
    try {
      await this.deps.work.reconcileInventory(placement, devices, { hello });
    } catch (err) {
      // The host is asked to announce itself again at its next heartbeat.
      this.deps.memory.announceAgain.add(hostId);
      throw err;
    }
    const unconfirmed = await this.deps.work.reconcileStates(hostId, states, { reconnect: false, receivedAt });
    this.deps.memory.remember(hostId, states.filter((st) => !unconfirmed.has(st.deviceId)), true);
  }

  private async onBye(msg: BusMessage): Promise<void> {
    const bye = this.parse(msg, Bye);
    if (!bye) return;
    await this.deps.liveness.drop(bye.hostId);
    this.deps.work.forget(bye.hostId);
    void this.deps.work.serially(bye.hostId, () => this.deps.work.hostLost(bye.hostId, 'host-stopped'));
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
}
