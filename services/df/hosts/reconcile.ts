import type { DeviceRow, HostDeviceRow } from '#projections/df-devices/index.js';
import { sameJson } from '#shared/canonical.js';
import type { DeviceInfo, WorkerState } from '#shared/wire/index.js';
import type { DeviceFacts, DevicePlacement } from '#events/df/devices.js';

/**
 * What a host reported, as reconciliation sees it: the devices it has (a hello or a device report), or
 * the states of its workers (a hello, a device report or a heartbeat).
 */
export type HostReport =
  | { kind: 'inventory'; placement: DevicePlacement; devices: readonly DeviceInfo[] }
  | {
      kind: 'states';
      states: readonly WorkerState[];
      /** Heartbeats bring back devices the read model shows offline; hellos and reports leave that to their inventory. */
      reconnect: boolean;
      /** When the registry received the report (the platform's clock). */
      receivedAt: number;
    };

/** What the platform holds of the host's devices, read before a report is reconciled. */
export interface HostView {
  /** The host's devices in the read model (with facts and placement for an inventory). */
  rows: ReadonlyMap<string, DeviceRow | HostDeviceRow>;
  /** The devices of the host's last `HostDevicesDisconnected`, when that is the last batch on its stream. */
  lastDisconnected?: readonly string[];
  /** Devices the host announced that another host owns. */
  refused?: ReadonlySet<string>;
  /** Sessions (of those `sessionsToAsk` names) still open in the event store. */
  openSessions?: ReadonlySet<string>;
  /** Sessions the read model shows active on the host's devices (asked only for devices whose session is open). */
  activeSessions?: ReadonlySet<string>;
  /** `device|session` pairs a beat said lost their session, with when that beat was received. */
  resetSuspects?: ReadonlyMap<string, number>;
}

/** One thing to do so the platform agrees with what the host reported. */
export type ReconcileAction =
  /** A new device, or one whose facts or placement changed: `DeviceConnected`. */
  | { kind: 'connect'; deviceId: string; facts: DeviceFacts; placement: DevicePlacement }
  /** Known devices that were offline: one `HostDevicesReconnected`. */
  | { kind: 'reconnect'; deviceIds: string[] }
  /** Devices the host no longer has: one `HostDevicesDisconnected`. */
  | { kind: 'disconnect'; deviceIds: string[]; reason: 'removed-from-host' }
  /** The open sessions on devices that went away end. */
  | { kind: 'end-sessions-on'; deviceIds: string[]; reason: 'device-disconnected' }
  /** A device this host was refused reports as its own now (it was moved here): settled from now on. */
  | { kind: 'accept-device'; deviceId: string }
  /** A device turned broken or recovered. */
  | { kind: 'report-health'; deviceId: string; health: 'broken' | 'ok'; reason: string }
  /** A broken device's session ends. */
  | { kind: 'end-session'; sessionId: string; reason: 'device-error' }
  /** A device holds a session the platform has closed: it is told to drop it. */
  | { kind: 'release-stale'; deviceId: string; sessionId: string }
  /**
   * A device says it holds no session while its session is active: a beat may have left the agent before
   * the session started, so this is only a suspicion (kept from the first time), and the device's state
   * is not remembered until it is settled.
   */
  | { kind: 'suspect-reset'; deviceId: string; sessionId: string }
  /** A beat received after the suspicion says the same: the device lost its session, which ends. */
  | { kind: 'confirm-reset'; deviceId: string; sessionId: string };

/** The kinds of `ReconcileAction`. */
export type ReconcileActionKind = ReconcileAction['kind'];

/** The key of a suspected session reset. */
export const suspectKey = (deviceId: string, sessionId: string) => `${deviceId}|${sessionId}`;

/**
 * Given what the platform holds and what a host reported, the actions to take, in order. No I/O.
 *
 * An inventory: devices new or whose facts or placement changed are connected; known devices that were
 * offline come back in one batch (with the devices of the host's last disconnection, which the read
 * model may not show yet); devices the host no longer has go offline in one batch and their sessions
 * end. States: a device reported by a host the read model shows offline comes back (heartbeats only); a
 * broken device goes to maintenance (ending its session); a device that holds a session the platform has
 * closed is told to drop it; an active session whose device no longer holds it (the agent restarted) is
 * ended once a second beat confirms it.
 */
export function reconcile(view: HostView, report: HostReport): ReconcileAction[] {
  return report.kind === 'inventory' ? reconcileInventory(view, report.placement, report.devices) : reconcileStates(view, report);
}

function reconcileInventory(view: HostView, placement: DevicePlacement, devices: readonly DeviceInfo[]): ReconcileAction[] {
  const rows = view.rows as ReadonlyMap<string, HostDeviceRow>;
  const reported = new Set(devices.map((d) => d.deviceId));
  const actions: ReconcileAction[] = [];
  const back: string[] = [];
  for (const info of devices) {
    const row = rows.get(info.deviceId);
    if (!row || !sameFacts(row, info, placement)) actions.push({ kind: 'connect', deviceId: info.deviceId, facts: factsOf(info), placement });
    else if (row.status === 'offline') back.push(info.deviceId);
  }
  // The read model may not show a loss yet: a host whose last batch took devices offline has those
  // devices brought back too (the batch is a no-op for devices that are online).
  for (const id of view.lastDisconnected ?? []) {
    const row = rows.get(id);
    const info = devices.find((d) => d.deviceId === id);
    if (row && info && sameFacts(row, info, placement) && !back.includes(id)) back.push(id);
  }
  if (back.length > 0) actions.push({ kind: 'reconnect', deviceIds: back });
  const gone = [...rows.values()].filter((r) => !reported.has(r.deviceId) && r.status !== 'offline').map((r) => r.deviceId);
  if (gone.length > 0) {
    actions.push({ kind: 'disconnect', deviceIds: gone, reason: 'removed-from-host' });
    actions.push({ kind: 'end-sessions-on', deviceIds: gone, reason: 'device-disconnected' });
  }
  return actions;
}

function reconcileStates(view: HostView, report: Extract<HostReport, { kind: 'states' }>): ReconcileAction[] {
  const { rows } = view;
  const actions: ReconcileAction[] = [];
  if (report.reconnect) {
    const back = report.states.filter((s) => rows.get(s.deviceId)?.status === 'offline').map((s) => s.deviceId);
    if (back.length > 0) actions.push({ kind: 'reconnect', deviceIds: back });
  }
  for (const s of report.states) {
    const row = rows.get(s.deviceId);
    if (!row) continue;
    if (view.refused?.has(s.deviceId)) actions.push({ kind: 'accept-device', deviceId: s.deviceId });
    const broken = s.state === 'broken';
    if ((row.health === 'broken') !== broken) {
      actions.push({ kind: 'report-health', deviceId: s.deviceId, health: broken ? 'broken' : 'ok', reason: s.detail ?? s.state });
    }
    if (broken && row.sessionId) actions.push({ kind: 'end-session', sessionId: row.sessionId, reason: 'device-error' });
    if (s.sessionId && s.sessionId !== row.sessionId && !view.openSessions?.has(s.sessionId)) {
      actions.push({ kind: 'release-stale', deviceId: s.deviceId, sessionId: s.sessionId });
    }
    if (lostItsSession(row, s) && view.openSessions?.has(row.sessionId) && view.activeSessions?.has(row.sessionId)) {
      const since = view.resetSuspects?.get(suspectKey(s.deviceId, row.sessionId));
      const confirmed = since !== undefined && report.receivedAt > since;
      actions.push({ kind: confirmed ? 'confirm-reset' : 'suspect-reset', deviceId: s.deviceId, sessionId: row.sessionId });
    }
  }
  return actions;
}

/** A ready device that says it holds no session while the platform gives it one. */
function lostItsSession(row: DeviceRow, s: WorkerState): row is DeviceRow & { sessionId: string } {
  return row.sessionId !== null && s.state === 'ready' && s.sessionId === null;
}

/**
 * Which sessions must be asked about before the states can be reconciled: `open`, whether each is still
 * open in the event store; `active`, the devices whose open session the read model must show active.
 */
export function sessionsToAsk(rows: ReadonlyMap<string, DeviceRow>, states: readonly WorkerState[]): string[] {
  const open = new Set<string>();
  for (const s of states) {
    const row = rows.get(s.deviceId);
    if (!row) continue;
    if (s.sessionId && s.sessionId !== row.sessionId) open.add(s.sessionId);
    if (lostItsSession(row, s)) open.add(row.sessionId);
  }
  return [...open];
}

/** The devices whose session the read model must show active: those that lost an open session. */
export function devicesToAskActive(rows: ReadonlyMap<string, DeviceRow>, states: readonly WorkerState[], openSessions: ReadonlySet<string>): string[] {
  return states.filter((s) => {
    const row = rows.get(s.deviceId);
    return row !== undefined && lostItsSession(row, s) && openSessions.has(row.sessionId);
  }).map((s) => s.deviceId);
}

/** What a worker reports that matters to the platform: its state and its session. */
export const stateKey = (s: WorkerState) => `${s.state}|${s.sessionId ?? ''}`;

function factsOf(info: DeviceInfo): DeviceFacts {
  const { deviceId: _id, ...facts } = info;
  return facts;
}

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
