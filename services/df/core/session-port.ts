import type { SessionHolders } from './holders.js';
import type { DeviceScope } from '#projections/df-devices/index.js';
import type { SessionRecord, SessionView } from '#projections/df-sessions/index.js';
import type { SessionType } from '#events/df/devices.js';
import type { ActivityKind, DebugProtocolName, SessionEndReason, SessionOutcome } from '#events/df/sessions.js';
import type { ControlAction, AgentCommand, DeviceOp, RpcResult } from '#shared/wire/index.js';
import type { Caller } from '../http.js';

/** Who records a timeline entry or ends a session: a caller, or the platform itself (`actor: 'system'`). */
export type SessionActor = Partial<Caller> & { actor?: string | number };

/** A session's way to its device (host, device, and whether it is open for commands). */
export type SessionTarget = Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'status'>;

export interface CreateSessionInput {
  deviceId: string;
  name?: string | undefined;
  type?: SessionType | undefined;
  buildName?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Whether the session records its screen from the start; absent: the workspace's session defaults. */
  record?: boolean | undefined;
}

/**
 * What the other device features ask of sessions (the sessions feature's `SessionService` answers
 * it). A feature takes this port in its constructor or options, never the service, so features do
 * not depend on the sessions feature's code.
 */
export interface SessionPort {
  /** Which devices the caller may see and use (docs/modules/device-testing.md, "Hosts"). */
  deviceScope(caller: Caller): DeviceScope;
  /** Who holds each session through a connection (viewers, WebDriver clients), for the busy-device watchdog. */
  readonly holders?: SessionHolders;
  /** A session of the caller's workspace, or 404. */
  get(caller: Pick<Caller, 'companyId' | 'workspaceId'>, sessionId: string): Promise<SessionRecord>;
  /** Whether the session is open according to its own stream (the read model may lag). */
  isOpen(sessionId: string): Promise<boolean>;
  /** Allocates the device and prepares it; answers once the session is active (or refuses). */
  create(caller: Caller, input: CreateSessionInput): Promise<SessionView>;
  /**
   * Sets the session's test outcome as `PUT /df/api/sessions/{id}/outcome` does, also after its end; the
   * outcome counts for its device's failed sessions in a row. The same outcome again changes nothing.
   */
  update(session: SessionRecord, caller: SessionActor, change: { outcome: { outcome: SessionOutcome; reason: string | null } }): Promise<void>;
  /** Ends a session (recording, logs, release of the device); safe to repeat. */
  end(session: Pick<SessionRecord, 'id' | 'hostId' | 'deviceId' | 'companyId' | 'workspaceId'>, reason: SessionEndReason, actor: string | number): Promise<void>;
  /** Sends one command to the session's device. */
  device<Op extends DeviceOp>(session: SessionTarget, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>>;
  /** An app or file command to the session's device (409 `DEVICE_UNSUPPORTED`, 404 for a path or app it lacks). */
  deviceContent<Op extends DeviceOp>(session: SessionTarget, command: Extract<AgentCommand, { op: Op }>, timeoutMs?: number): Promise<RpcResult<Op>>;
  /** Keeps bytes as an artifact of the session (counted against the company's storage). */
  storeArtifact(
    session: Pick<SessionRecord, 'id' | 'companyId'>,
    caller: Partial<Caller> & { actor?: string | number },
    artifact: { artifactId: string; type: 'screenshot'; name: string; contentType: string; data: Buffer },
  ): Promise<void>;
  /** Moves bytes to the device's agent in chunks and commits them; more than `maxBytes` is 413. */
  stageUpload(session: SessionTarget, bytes: AsyncIterable<Buffer>, maxBytes: number, isTruncated?: () => boolean): Promise<{ stageId: string; size: number; sha256: string }>;
  /** Performs a control action and records it on the timeline. */
  control(session: SessionRecord, caller: Partial<Caller>, action: ControlAction, via: 'api' | 'viewer'): Promise<RpcResult<'control'>>;
  /** Records one timeline entry (which also keeps the session from idling out). */
  recordActivity(session: Pick<SessionRecord, 'id'>, caller: SessionActor, kind: ActivityKind, detail: Record<string, unknown>): Promise<{ activityId: string; kind: ActivityKind }>;
  /** Records several timeline entries with one append, refused as a whole when the session is not active. */
  recordActivities(session: Pick<SessionRecord, 'id'>, caller: SessionActor, entries: { kind: ActivityKind; detail: Record<string, unknown> }[]): Promise<string[]>;
  /** Gives a user debug access over `protocols`, or withdraws it; answers whether anything changed. */
  changeDebugAccess(session: Pick<SessionRecord, 'id'>, caller: Caller, userId: number, protocols: DebugProtocolName[], grant: boolean): Promise<boolean>;
}

/** The booking that keeps a device from a caller: its id, range and holder. */
export interface BlockingBooking {
  reservationId: string;
  startAt: string;
  endAt: string;
  userId: number;
}

/**
 * What sessions ask of device bookings (the reservations feature's gate answers it, built before
 * the sessions service): whether the caller may open a session on a device now, and that the holder did.
 */
export interface ReservationGate {
  /** 409 DEVICE_RESERVED when someone else holds a booking of the device now; the caller's own booking's id, or null. */
  admit(caller: Caller, deviceId: string): Promise<string | null>;
  /** The holder opened a session on the booked device (the booking no longer expires). */
  opened(caller: Caller, deviceId: string, reservationId: string, sessionId: string): Promise<void>;
  /** The booking that keeps the device from the caller now, or null. */
  blocking(caller: Caller, deviceId: string): Promise<BlockingBooking | null>;
}

/**
 * What sessions ask of plan limits and workspace defaults (the fleet feature's `FleetService`
 * answers it, built before the sessions service): a concurrent-session slot, the storage limit, and
 * the defaults a new session takes.
 */
export interface SessionFleetHooks {
  /** Takes a slot for a new session, or 403 QUOTA_EXCEEDED (concurrent sessions, session minutes). */
  admitSession(caller: Caller, sessionId: string): Promise<void>;
  /** The session is closed or was never created: its slot is free. */
  sessionClosed(sessionId: string): Promise<void>;
  sessionDefaults(workspaceId: number): Promise<{ recordByDefault: boolean; recordAutomation: boolean; screenshotFormat: 'png' | 'jpeg'; idleTimeoutSeconds: number }>;
  /** Writes `bytes` more of the company's blobs through `write`, or 403 QUOTA_EXCEEDED and writes nothing. */
  withStorage<T>(companyId: number, bytes: number, write: () => Promise<T>): Promise<T>;
  /** 403 QUOTA_EXCEEDED when the company's storage is full (a recording about to start). */
  checkStorage(companyId: number): Promise<void>;
  idleTimeoutMs(workspaceId: number): Promise<number>;
}
