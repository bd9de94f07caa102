import type { WebhookEventName } from '#events/organization/webhooks.js';
import { accessibilityAuditStream } from '#events/df/accessibility.js';
import { deviceStream } from '#events/df/devices.js';
import { hostStream } from '#events/df/hosts.js';
import { sessionStream } from '#events/df/sessions.js';
import { testRunStream } from '#events/df/test-runs.js';
import { healthCheckStream } from '#events/healthcheck/checks.js';
import { RESULT_STATUSES, testSessionStream } from '#events/tmt/test-sessions.js';
import type { EventStore, RecordedEvent } from '#shared/es/index.js';

/** How long before a booking starts `reservation.starting` is sent. */
export const RESERVATION_STARTING_LEAD_MS = 10 * 60_000;

/** A webhook message one domain event causes, before it is addressed to endpoints. */
export interface Outgoing {
  event: WebhookEventName;
  companyId: number;
  /** The workspaces whose endpoints hear of it; null for every workspace of the company. */
  workspaceIds: number[] | null;
  data: Record<string, unknown>;
  /** What makes it one message: the same key is never queued twice for one endpoint. */
  key: string;
  /** When it is sent: at once, or later (a booking starting soon). */
  dueAt: Date;
  /** What a later event may withdraw it by (the booking of a `reservation.starting`). */
  subject: string | null;
}

/** What one domain event means for webhooks: messages to queue, and queued ones it withdraws. */
export interface Consequence {
  deliver: Outgoing[];
  /** Unsent `reservation.starting` messages of this booking are dropped (rescheduled, cancelled, over). */
  withdraw: string | null;
}

type Payload = Record<string, unknown>;
const str = (v: unknown): string => String(v);
const num = (v: unknown): number => Number(v);

/** The first event of a stream: where each source's company and workspace were recorded. */
async function first(store: EventStore, streamId: string): Promise<Payload | null> {
  const [e] = await store.readStream(streamId, { maxCount: 1 });
  return e ? (e.payload as Payload) : null;
}

/** A booking as its device's booking stream describes it by now (scheduled, then perhaps moved). */
async function booking(store: EventStore, event: RecordedEvent): Promise<Payload | null> {
  const id = (event.payload as Payload).reservationId;
  let found: Payload | null = null;
  for (const e of await store.readStream(event.streamId)) {
    const p = e.payload as Payload;
    if (p.reservationId !== id || e.position > event.position) continue;
    if (e.type === 'DeviceReservationScheduled') found = { ...p };
    else if (e.type === 'DeviceReservationRescheduled' && found) found = { ...(found as Payload), startAt: p.startAt, endAt: p.endAt };
  }
  return found;
}

/** A stream's events up to `event` (the state it describes when `event` happened, not later). */
async function upTo(store: EventStore, streamId: string, event: RecordedEvent): Promise<RecordedEvent[]> {
  return (await store.readStream(streamId)).filter((e) => e.position <= event.position);
}

/**
 * A device session as its own stream describes it when it ended: name (renamed or not), build,
 * outcome as set by then (a runner may set it later: that is not sent), start and end; and the
 * platform of its device, from the first event of the device's stream (the session's own does not
 * record it).
 */
async function endedSession(store: EventStore, event: RecordedEvent): Promise<{ origin: Payload | null; data: Payload }> {
  const p = event.payload as Payload;
  const stream = await upTo(store, sessionStream(str(p.sessionId)), event);
  const origin = (stream[0]?.payload as Payload | undefined) ?? null;
  let name: unknown = origin?.name ?? null;
  let startedAt: string | null = null;
  let outcome: unknown = null;
  let outcomeReason: unknown = null;
  for (const e of stream) {
    const q = e.payload as Payload;
    if (e.type === 'DeviceSessionRenamed') name = q.name;
    else if (e.type === 'DeviceSessionStarted') startedAt ??= e.metadata.occurredAt;
    else if (e.type === 'DeviceSessionOutcomeSet') [outcome, outcomeReason] = [q.outcome, q.reason ?? null];
  }
  const endedAt = event.metadata.occurredAt;
  // A device's stream opens with its first connection, whose facts name its platform (which a device
  // keeps): one event read, however long the device's history.
  const device = origin?.deviceId ? await first(store, deviceStream(str(origin.deviceId))) : null;
  const devicePlatform = (device?.facts as Payload | undefined)?.platform ?? null;
  const data = {
    sessionId: p.sessionId,
    name,
    deviceId: origin?.deviceId,
    deviceName: origin?.deviceName,
    devicePlatform,
    ownerId: origin?.ownerId,
    buildName: origin?.buildName ?? null,
    reason: p.reason,
    outcome,
    outcomeReason,
    startedAt,
    endedAt,
    durationMs: startedAt === null ? null : Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)),
  };
  return { origin, data };
}

/** A test session's results when it was completed: the newest result of each case, counted by status. */
async function finishedTestSession(store: EventStore, event: RecordedEvent): Promise<{ origin: Payload | null; data: Payload }> {
  const p = event.payload as Payload;
  const stream = await upTo(store, testSessionStream(str(p.sessionId)), event);
  const origin = (stream[0]?.payload as Payload | undefined) ?? null;
  let name: unknown = origin?.name ?? null;
  const latest = new Map<string, string>();
  for (const e of stream) {
    const q = e.payload as Payload;
    if (e.type === 'TestSessionUpdated' && typeof q.name === 'string') name = q.name;
    else if (e.type === 'TestResultsRecorded') for (const r of q.results as { testCaseId: string; status: string }[]) latest.set(r.testCaseId, r.status);
  }
  const counts: Record<string, number> = Object.fromEntries(RESULT_STATUSES.map((s) => [s, 0]));
  for (const status of latest.values()) counts[status] = (counts[status] ?? 0) + 1;
  return { origin, data: { testSessionId: p.sessionId, projectId: origin?.projectId, name, results: { ...counts, total: latest.size } } };
}

const none: Consequence = { deliver: [], withdraw: null };
const at = (event: RecordedEvent) => new Date(event.metadata.occurredAt);

/** One message to the workspace that `origin` (a stream's first payload) names. */
function toWorkspace(event: RecordedEvent, name: WebhookEventName, origin: Payload | null, data: Payload): Consequence {
  if (!origin || typeof origin.companyId !== 'number' || typeof origin.workspaceId !== 'number') return none;
  return {
    deliver: [{ event: name, companyId: origin.companyId, workspaceIds: [origin.workspaceId], data: { ...data, workspaceId: origin.workspaceId }, key: event.id, dueAt: at(event), subject: null }],
    withdraw: null,
  };
}

async function reservationStarting(store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const b = await booking(store, event);
  if (!b) return none;
  const reservationId = str(b.reservationId);
  const dueAt = new Date(Math.max(Date.parse(str(b.startAt)) - RESERVATION_STARTING_LEAD_MS, at(event).getTime()));
  const data = { reservationId, deviceId: b.deviceId, userId: b.userId, startAt: b.startAt, endAt: b.endAt, workspaceId: b.workspaceId };
  return {
    deliver: [{ event: 'reservation.starting', companyId: num(b.companyId), workspaceIds: [num(b.workspaceId)], data, key: `${reservationId}@${str(b.startAt)}`, dueAt, subject: reservationId }],
    withdraw: event.type === 'DeviceReservationRescheduled' ? reservationId : null,
  };
}

async function reservationOver(store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const reservationId = str((event.payload as Payload).reservationId);
  if (event.type !== 'DeviceReservationEnded') return { deliver: [], withdraw: reservationId };
  const b = await booking(store, event);
  if (!b) return { deliver: [], withdraw: reservationId };
  const data = { reservationId, deviceId: b.deviceId, userId: b.userId, startAt: b.startAt, endAt: b.endAt, reason: (event.payload as Payload).reason };
  return { ...toWorkspace(event, 'reservation.ended', b, data), withdraw: reservationId };
}

/** A maintenance of its device falls in a booking (kept, with a warning): its workspace hears of it, naming the booker. */
async function reservationMaintenance(store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const b = await booking(store, event);
  if (!b) return none;
  const p = event.payload as Payload;
  const data = { reservationId: p.reservationId, deviceId: b.deviceId, userId: b.userId, startAt: b.startAt, endAt: b.endAt, reason: p.reason, until: p.until };
  return toWorkspace(event, 'reservation.maintenance_conflict', b, data);
}

async function healthCheck(store: EventStore, event: RecordedEvent, name: 'healthcheck.down' | 'healthcheck.recovered'): Promise<Consequence> {
  const p = event.payload as Payload;
  const stream = await store.readStream(healthCheckStream(str(p.checkId)));
  const origin = (stream[0]?.payload as Payload | undefined) ?? null;
  const checkName = stream.filter((e) => e.position <= event.position && typeof (e.payload as Payload).name === 'string').at(-1)?.payload as Payload | undefined;
  return toWorkspace(event, name, origin, { ...p, name: checkName?.name ?? null });
}

/** A host that stopped answering: every workspace its devices serve hears of it. */
async function hostLost(store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const p = event.payload as Payload;
  if (p.reason !== 'heartbeat-missed') return none;
  let host: Payload | null = null;
  for (const e of await store.readStream(hostStream(str(p.hostId)))) {
    const q = e.payload as Payload;
    if (e.type === 'HostEnrolled') host = { ...q };
    else if (host && e.type === 'HostRescoped') host = { ...(host as Payload), workspaceIds: q.workspaceIds };
    else if (host && e.type === 'HostRenamed') host = { ...(host as Payload), name: q.name };
  }
  if (!host) return none;
  const data = { hostId: p.hostId, name: host.name, deviceIds: p.deviceIds };
  return { deliver: [{ event: 'host.lost', companyId: num(host.companyId), workspaceIds: (host.workspaceIds as number[] | null) ?? null, data, key: event.id, dueAt: at(event), subject: null }], withdraw: null };
}

/** States a device recovers from when it comes back healthy. */
const UNWELL = ['degraded', 'cooling', 'charging', 'quarantined', 'maintenance'];

/**
 * A device's health changed: `device.health_changed` always, and `device.quarantined` or
 * `device.recovered` (back to healthy from any other state) beside it, to the workspaces it serves.
 */
async function deviceHealth(_store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const p = event.payload as Payload;
  if (typeof p.companyId !== 'number') return none;
  const health = p.health as Payload;
  const data = { deviceId: p.deviceId, from: p.from, state: health.state, reasons: health.reasons, cause: p.cause, battery: health.battery ?? null, storageFreeMb: health.storageFreeMb ?? null, checkedAt: health.checkedAt };
  const names: WebhookEventName[] = ['device.health_changed'];
  if (health.state === 'quarantined' && p.from !== 'quarantined') names.push('device.quarantined');
  if (health.state === 'healthy' && UNWELL.includes(str(p.from))) names.push('device.recovered');
  const workspaceIds = (p.workspaceIds as number[] | null) ?? null;
  return { deliver: names.map((name) => ({ event: name, companyId: num(p.companyId), workspaceIds, data, key: `${event.id}:${name}`, dueAt: at(event), subject: null })), withdraw: null };
}

/** Each domain event type webhooks follow, and what it means for them. */
const SOURCES: Record<string, (store: EventStore, event: RecordedEvent) => Promise<Consequence>> = {
  DeviceSessionEnded: async (store, event) => {
    const { origin, data } = await endedSession(store, event);
    return toWorkspace(event, 'session.ended', origin, data);
  },
  DeviceReservationScheduled: reservationStarting,
  DeviceReservationRescheduled: reservationStarting,
  DeviceReservationEnded: reservationOver,
  DeviceReservationCancelled: reservationOver,
  DeviceReservationExpired: reservationOver,
  DeviceReservationMaintenanceConflict: reservationMaintenance,
  AccessibilityExportFinished: async (store, event) => {
    const p = event.payload as Payload;
    const o = await first(store, accessibilityAuditStream(str(p.auditId)));
    return toWorkspace(event, 'accessibility.export.ready', o, { auditId: p.auditId, exportId: p.exportId, state: p.state, size: p.size, error: p.error });
  },
  TestSessionCompleted: async (store, event) => {
    const { origin, data } = await finishedTestSession(store, event);
    return toWorkspace(event, 'test_session.finished', origin, data);
  },
  TestRunFinished: async (store, event) => {
    const p = event.payload as Payload;
    const o = await first(store, testRunStream(str(p.runId)));
    const data = { runId: p.runId, name: o?.name ?? null, testPackage: o?.testPackage ?? null, state: p.state, reason: p.reason, counts: p.counts, endedAt: p.endedAt, appVersionId: o?.appVersionId ?? null, testVersionId: o?.testVersionId ?? null };
    return toWorkspace(event, 'test_run.finished', o, data);
  },
  HealthCheckWentDown: (store, event) => healthCheck(store, event, 'healthcheck.down'),
  HealthCheckRecovered: (store, event) => healthCheck(store, event, 'healthcheck.recovered'),
  HostDevicesDisconnected: hostLost,
  DeviceHealthChanged: deviceHealth,
};

/** The domain event types the dispatcher subscribes to. */
export const SOURCE_EVENT_TYPES: readonly string[] = Object.keys(SOURCES);

/** What a domain event means for webhooks (nothing for a type they do not follow). */
export function consequenceOf(store: EventStore, event: RecordedEvent): Promise<Consequence> {
  const source = SOURCES[event.type];
  return source ? source(store, event) : Promise.resolve(none);
}
