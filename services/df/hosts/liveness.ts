import type { Logger } from 'pino';
import { hostsWithOnlineDevices } from '#projections/df-devices/index.js';
import type { MessageBus } from '#shared/bus/index.js';
import type { Database } from '#shared/db/index.js';
import type { KeyValueStore } from '#shared/kv/index.js';
import { subjects } from '#shared/wire/index.js';
import { PeriodicJob } from '../core/periodic.js';
import type { Tick } from '#shared/tracing/index.js';

const hostKey = (hostId: string) => `df:host:${hostId}`;

const DEFAULT_RECONNECT_GRACE_MS = 60_000;

/** Where a live host's devices hang: what its hello said. */
export interface HostWhereabouts {
  nodeName: string;
  hubId: string;
}

export interface HostLivenessDeps {
  bus: MessageBus;
  kv: KeyValueStore;
  db: Database;
  logger: Logger;
  hostTimeoutMs: number;
  /**
   * After this replica's own bus connection comes back, how long hosts have to heartbeat or announce
   * themselves again before they are declared lost (the outage was the platform's, not theirs).
   */
  reconnectGraceMs?: number;
  /** The platform's clock, read at each use. */
  clock: { now(): Date };
  /** A host whose liveness key expired: its devices go offline (the registry's work). */
  lost(hostId: string): Promise<void>;
}

/**
 * Which hosts are alive. Liveness lives in the key-value store (`df:host:<id>` with a TTL of the host
 * time-out), so every replica of the service agrees on which hosts are alive; a reaper hands the hosts
 * whose key expired to `lost`. One clock: the platform's.
 */
export class HostLiveness {
  private readonly reaper = new PeriodicJob(
    'host-reaper',
    (tick) => this.reap(tick),
    (err) => this.deps.logger.warn({ err }, 'host reaper failed'),
  );
  /**
   * No host is declared lost before this time: right after a start (running agents get one time-out
   * to answer the service hello), and for the reconnection grace after this replica's bus came back.
   */
  private quietUntil: number;
  private offConnection: (() => void) | null = null;
  /** When this replica last wrote each host's liveness key. */
  private readonly refreshedAt = new Map<string, number>();

  constructor(private readonly deps: HostLivenessDeps) {
    this.quietUntil = this.now() + deps.hostTimeoutMs;
  }

  /** The platform's time, in milliseconds. */
  now(): number {
    return this.deps.clock.now().getTime();
  }

  /** Watches this replica's bus connection and starts the reaper. */
  start(): void {
    const { bus } = this.deps;
    this.offConnection = bus.onConnectionChange((up) => {
      if (up) {
        const graceMs = this.deps.reconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS;
        this.quietUntil = Math.max(this.quietUntil, this.now() + graceMs);
        this.deps.logger.info({ graceMs }, 'message bus connection restored; hosts have a grace period to announce themselves again');
        // Agents announce themselves at their next beat anyway; this asks them at once.
        void bus.publish(subjects.serviceHello(), new Uint8Array()).catch(() => undefined);
      } else {
        this.deps.logger.warn('message bus connection lost; no host is declared lost until it is back');
      }
    });
    this.reaper.start(Math.max(100, Math.floor(this.deps.hostTimeoutMs / 3)));
  }

  /** No reaping after this call; resolves once the reaping under way, if any, has ended. */
  stop(): Promise<void> {
    this.offConnection?.();
    this.offConnection = null;
    return this.reaper.stop();
  }

  /** What the live host's hello said of it; null when the host is not alive (lost, gone, never announced). */
  async whereabouts(hostId: string): Promise<HostWhereabouts | null> {
    const value = await this.deps.kv.get(hostKey(hostId));
    return value === null ? null : (JSON.parse(value) as HostWhereabouts);
  }

  /**
   * Keeps the host's liveness key alive. The key lives a fifth longer than the host time-out and is
   * rewritten only when a fifth of the time-out has passed since this replica last wrote it, so a host
   * is declared lost between one and 1.2 time-outs after its last beat, and most beats write nothing.
   * A clock set back (a test's) rewrites it too, so the key never outlives its last write unrenewed.
   */
  async refresh(hostId: string, where: HostWhereabouts, force: boolean): Promise<void> {
    const now = this.now();
    const slice = this.deps.hostTimeoutMs / 5;
    const since = now - (this.refreshedAt.get(hostId) ?? 0);
    if (!force && since >= 0 && since < slice) return;
    await this.deps.kv.set(hostKey(hostId), JSON.stringify({ nodeName: where.nodeName, hubId: where.hubId }), { ttlMs: this.deps.hostTimeoutMs + slice });
    this.refreshedAt.set(hostId, now);
  }

  /** The host is no longer alive (it said goodbye, or it was revoked). */
  async drop(hostId: string): Promise<void> {
    await this.deps.kv.delete(hostKey(hostId));
  }

  /** Forgets when this replica last wrote the host's key (its next beat writes it). */
  forget(hostId: string): void {
    this.refreshedAt.delete(hostId);
  }

  /** Hands the hosts whose liveness key expired to `lost`. */
  private async reap(tick: Tick): Promise<void> {
    // Silence heard through a bus that is down says nothing about the hosts.
    if (!this.deps.bus.connected || this.now() < this.quietUntil) return;
    for (const hostId of await hostsWithOnlineDevices(this.deps.db)) {
      if ((await this.deps.kv.get(hostKey(hostId))) !== null) continue;
      if (!this.deps.bus.connected || this.now() < this.quietUntil) return;
      tick.count('hosts.lost');
      await tick.work(async () => {
        this.deps.logger.warn({ hostId }, 'host missed its heartbeats; its devices go offline');
        await this.deps.lost(hostId);
      });
    }
  }
}
