import { z } from 'zod';
import { defineEvents, type EventOf } from '#shared/es/index.js';
import { Screen } from '#shared/wire/index.js';
import type { SessionType } from './devices.js';
import { tenantScope } from '../fields.js';

/** `starting | active | ended | failed` (docs/api-conventions.md, "Device testing"). */
export type SessionStatus = 'starting' | 'active' | 'ended' | 'failed';
const artifactType = z.enum(['screenshot', 'log', 'recording']);
export type ArtifactType = z.output<typeof artifactType>;
/** How an automated test run on the session came out, as its runner reports it. */
export const SessionOutcome = z.enum(['passed', 'failed']);
export type SessionOutcome = z.output<typeof SessionOutcome>;
const activityKind = z.enum(['control', 'navigation', 'note', 'screenshot', 'recording', 'custom', 'lifecycle']);
export type ActivityKind = z.output<typeof activityKind>;

/**
 * Why a session ended: every end names one (docs/modules/device-testing.md, "Why a session ends").
 * `DeviceSessionEnded.reason` stays a string, so that ends recorded before a reason was renamed still read.
 */
export const SESSION_END_REASONS = [
  'user',
  'idle-timeout',
  'max-duration',
  'prepare-abandoned',
  'reserved',
  'reservation-ended',
  'webdriver-session-deleted',
  'webdriver-session-failed',
  'webdriver-request-abandoned',
  'accessibility-audit-finished',
  'test-run-finished',
  'host-lost',
  'host-stopped',
  'host-revoked',
  'device-disconnected',
  'device-error',
  'device-reset',
  'abandoned',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

const session = { sessionId: z.string() };
/** The debug protocols of each platform (the agent's `DebugProtocol`). */
export const DebugProtocolName = z.enum(['adb', 'jdwp', 'tcp_forward', 'cdp', 'usbmux', 'lldb_rsp', 'webkit_inspector']);
export type DebugProtocolName = z.output<typeof DebugProtocolName>;
const record = z.record(z.string(), z.unknown());
/** Typed text's burst: who typed (`via:user`), when the burst last grew, how many characters and inputs it holds. */
const typing = z.object({ by: z.string(), at: z.string(), characters: z.number().int(), inputs: z.number().int() });

/** Events of one device session (`device-session-<id>`). */
export const sessionEvents = defineEvents({
  DeviceSessionRequested: z.object({
    ...session,
    deviceId: z.string(),
    hostId: z.string(),
    deviceName: z.string(),
    name: z.string(),
    type: z.custom<SessionType>((v) => v === 'manual' || v === 'automation' || v === 'debug', 'a session type'),
    buildName: z.string().nullable(),
    metadata: record,
    ownerId: z.number().int(),
    ...tenantScope,
  }),
  DeviceSessionStarted: z.object({ ...session, screen: Screen }),
  DeviceSessionFailed: z.object({ ...session, code: z.string(), reason: z.string() }),
  DeviceSessionEnded: z.object({ ...session, reason: z.string() }),
  DeviceSessionDeleted: z.object(session),
  DeviceSessionRenamed: z.object({ ...session, name: z.string() }),
  DeviceSessionMetadataUpdated: z.object({ ...session, metadata: record }),
  DeviceSessionNotesUpdated: z.object({ ...session, notes: z.string() }),
  /** The session's test outcome, set (or changed) by its runner; `reason` is the first failure's message. */
  DeviceSessionOutcomeSet: z.object({ ...session, outcome: SessionOutcome, reason: z.string().nullable() }),
  /** A timeline entry; `typing` when it is typed text that later text of the same typist may extend. */
  DeviceSessionActivityRecorded: z.object({ ...session, activityId: z.string(), kind: activityKind, detail: record, typing: typing.optional() }),
  /**
   * More text typed in the same burst: the entry `activityId` (typed text) now has `detail` (the whole
   * burst's), and its burst last grew at `typing.at`.
   */
  DeviceSessionActivityExtended: z.object({ ...session, activityId: z.string(), detail: record, typing }),
  DeviceSessionArtifactStored: z.object({
    ...session,
    artifactId: z.string(),
    type: artifactType,
    name: z.string(),
    blobKey: z.string(),
    contentType: z.string(),
    size: z.number(),
  }),
  DeviceSessionRecordingStarted: z.object({ ...session, recordingId: z.string() }),
  DeviceSessionRecordingStopped: z.object({
    ...session,
    recordingId: z.string(),
    frames: z.number().int(),
    artifactId: z.string().nullable(),
    /** The video the host encoded of it, stored as one file (absent: none was made). */
    video: z.object({ format: z.literal('mp4'), durationMs: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() }).optional(),
  }),
  /**
   * The session's videos were removed from the blob store: older than the workspace's
   * `videoRetentionDays` (the session keeps saying it had one, and when it went).
   */
  DeviceSessionVideoExpired: z.object({ ...session, retentionDays: z.number().int().positive() }),
  /** A user was given debug access to the session's device over these protocols. */
  DeviceSessionDebugAccessGranted: z.object({ ...session, userId: z.number().int(), protocols: z.array(DebugProtocolName) }),
  /** A user's debug access over these protocols ended (their open tunnels close). */
  DeviceSessionDebugAccessWithdrawn: z.object({ ...session, userId: z.number().int(), protocols: z.array(DebugProtocolName) }),
});
export type SessionEvent = EventOf<typeof sessionEvents>;
export const SESSION_EVENT_TYPES = sessionEvents.types;

/** Stream of one session. */
export const sessionStream = (sessionId: string) => `device-session-${sessionId}`;
