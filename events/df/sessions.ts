import type { DomainEvent } from '#shared/es/decider.js';
import type { Screen } from '#shared/wire/index.js';
import type { SessionType } from './devices.js';

/** `starting | active | ended | failed` (decisions.md, "Device testing"). */
export type SessionStatus = 'starting' | 'active' | 'ended' | 'failed';
export type ArtifactType = 'screenshot' | 'log' | 'recording';
export type ActivityKind = 'control' | 'navigation' | 'note' | 'screenshot' | 'recording' | 'custom' | 'lifecycle';

export type SessionEvent =
  | DomainEvent<
      'DeviceSessionRequested',
      {
        sessionId: string;
        deviceId: string;
        hostId: string;
        deviceName: string;
        name: string;
        type: SessionType;
        buildName: string | null;
        metadata: Record<string, unknown>;
        ownerId: number;
        companyId: number;
        workspaceId: number;
      }
    >
  | DomainEvent<'DeviceSessionStarted', { sessionId: string; screen: Screen }>
  | DomainEvent<'DeviceSessionFailed', { sessionId: string; code: string; reason: string }>
  | DomainEvent<'DeviceSessionEnded', { sessionId: string; reason: string }>
  | DomainEvent<'DeviceSessionDeleted', { sessionId: string }>
  | DomainEvent<'DeviceSessionRenamed', { sessionId: string; name: string }>
  | DomainEvent<'DeviceSessionMetadataUpdated', { sessionId: string; metadata: Record<string, unknown> }>
  | DomainEvent<'DeviceSessionNotesUpdated', { sessionId: string; notes: string }>
  | DomainEvent<'DeviceSessionActivityRecorded', { sessionId: string; activityId: string; kind: ActivityKind; detail: Record<string, unknown> }>
  | DomainEvent<
      'DeviceSessionArtifactStored',
      { sessionId: string; artifactId: string; type: ArtifactType; name: string; blobKey: string; contentType: string; size: number }
    >
  | DomainEvent<'DeviceSessionRecordingStarted', { sessionId: string; recordingId: string }>
  | DomainEvent<'DeviceSessionRecordingStopped', { sessionId: string; recordingId: string; frames: number; artifactId: string | null }>;

export const SESSION_EVENT_TYPES = [
  'DeviceSessionRequested',
  'DeviceSessionStarted',
  'DeviceSessionFailed',
  'DeviceSessionEnded',
  'DeviceSessionDeleted',
  'DeviceSessionRenamed',
  'DeviceSessionMetadataUpdated',
  'DeviceSessionNotesUpdated',
  'DeviceSessionActivityRecorded',
  'DeviceSessionArtifactStored',
  'DeviceSessionRecordingStarted',
  'DeviceSessionRecordingStopped',
] as const satisfies readonly SessionEvent['type'][];

/** Stream of one session. */
export const sessionStream = (sessionId: string) => `device-session-${sessionId}`;
