import type { WorkerState } from '#shared/wire/index.js';
import { stateKey } from './reconcile.js';

/**
 * What this replica remembers of each host between its messages: the device states it last reconciled
 * (so an unchanged beat costs nothing), the beat waiting to be reconciled, the devices the host was
 * refused, the suspected session resets, and the hosts that must announce themselves again.
 */
export class HostMemory {
  /** Per host, the device states this replica last reconciled (`state|sessionId`). */
  private readonly lastStates = new Map<string, Map<string, string>>();
  /**
   * Per host, the devices it announced that another host owns: their states are never remembered, so
   * each beat looks at them again and a device moved to this host comes online at its next beat.
   */
  private readonly refusedDevices = new Map<string, Set<string>>();
  /** Per host, the newest heartbeat states waiting to be reconciled. */
  readonly pendingBeats = new Map<string, { states: readonly WorkerState[]; receivedAt: number }>();
  /** `device|session` pairs one beat said lost their session, with when that beat came; a second beat confirms it. */
  readonly resetSuspects = new Map<string, number>();
  /**
   * Hosts whose announced devices this replica failed to reconcile (a database error, say): their next
   * heartbeat is answered `known: false`, so the agent announces itself again and the work is retried.
   */
  readonly announceAgain = new Set<string>();
  /** Hosts revoked through this replica: never known again (their hellos are refused by the enrolment too). */
  readonly revokedHosts = new Set<string>();

  /** The states that differ from those last reconciled (all of them when none are remembered). */
  changedStates(hostId: string, states: readonly WorkerState[]): readonly WorkerState[] {
    const last = this.lastStates.get(hostId);
    return last ? states.filter((s) => last.get(s.deviceId) !== stateKey(s)) : states;
  }

  /** Remembers reconciled states (replacing what was remembered of the host when `replace`). */
  remember(hostId: string, states: readonly WorkerState[], replace: boolean): void {
    let known = this.lastStates.get(hostId);
    if (!known || replace) {
      known = new Map();
      this.lastStates.set(hostId, known);
    }
    const refused = this.refusedDevices.get(hostId);
    for (const s of states) if (!refused?.has(s.deviceId)) known.set(s.deviceId, stateKey(s));
  }

  /** Not reconciled: the next beat compares every state again. */
  forgetStates(hostId: string): void {
    this.lastStates.delete(hostId);
  }

  refused(hostId: string): ReadonlySet<string> | undefined {
    return this.refusedDevices.get(hostId);
  }

  setRefused(hostId: string, deviceIds: ReadonlySet<string>): void {
    if (deviceIds.size > 0) this.refusedDevices.set(hostId, new Set(deviceIds));
    else this.refusedDevices.delete(hostId);
  }

  /** A device this host was refused that is its own now (moved here). */
  accept(hostId: string, deviceId: string): void {
    this.refusedDevices.get(hostId)?.delete(deviceId);
  }

  /** Everything remembered of the host's devices and beats. */
  forget(hostId: string): void {
    this.lastStates.delete(hostId);
    this.refusedDevices.delete(hostId);
    this.pendingBeats.delete(hostId);
  }
}
