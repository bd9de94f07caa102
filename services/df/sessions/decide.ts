import type { Decider } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import type { ActivityKind, ArtifactType, SessionEvent, SessionStatus } from '#events/df/sessions.js';
import { unreachable } from '#shared/unreachable.js';

type Requested = Extract<SessionEvent, { type: 'DeviceSessionRequested' }>['payload'];

export interface SessionState {
  status: SessionStatus | null;
  deleted: boolean;
  session: Requested | null;
  recordingId: string | null;
}

export type SessionCommand =
  | { type: 'RequestSession'; session: Requested }
  | { type: 'MarkSessionStarted'; sessionId: string; screen: { width: number; height: number; scale: number } }
  | { type: 'MarkSessionFailed'; sessionId: string; code: string; reason: string }
  | { type: 'EndSession'; sessionId: string; reason: string }
  | { type: 'DeleteSession'; sessionId: string }
  | { type: 'RenameSession'; sessionId: string; name: string }
  | { type: 'UpdateSessionMetadata'; sessionId: string; metadata: Record<string, unknown> }
  | { type: 'UpdateSessionNotes'; sessionId: string; notes: string }
  | { type: 'RecordActivity'; sessionId: string; activityId: string; kind: ActivityKind; detail: Record<string, unknown> }
  | { type: 'StoreArtifact'; sessionId: string; artifactId: string; artifactType: ArtifactType; name: string; blobKey: string; contentType: string; size: number }
  | { type: 'StartRecording'; sessionId: string; recordingId: string }
  | { type: 'StopRecording'; sessionId: string; frames: number; artifactId: string | null };

const isOpen = (s: SessionState) => s.status === 'starting' || s.status === 'active';

function requireExisting(state: SessionState): void {
  if (state.status === null || state.deleted) throw new AppError('NOT_FOUND', 'Session not found');
}

function requireActive(state: SessionState): void {
  requireExisting(state);
  if (state.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${state.status}`);
}

/** One device session: starting → active → ended, or starting → failed; then it may be deleted. */
export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: () => ({ status: null, deleted: false, session: null, recordingId: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'DeviceSessionRequested':
        return { ...state, status: 'starting', session: event.payload };
      case 'DeviceSessionStarted':
        return { ...state, status: 'active' };
      case 'DeviceSessionFailed':
        return { ...state, status: 'failed', recordingId: null };
      case 'DeviceSessionEnded':
        return { ...state, status: 'ended', recordingId: null };
      case 'DeviceSessionDeleted':
        return { ...state, deleted: true };
      case 'DeviceSessionRenamed':
        return state.session ? { ...state, session: { ...state.session, name: event.payload.name } } : state;
      case 'DeviceSessionMetadataUpdated':
        return state.session ? { ...state, session: { ...state.session, metadata: event.payload.metadata } } : state;
      case 'DeviceSessionRecordingStarted':
        return { ...state, recordingId: event.payload.recordingId };
      case 'DeviceSessionRecordingStopped':
        return { ...state, recordingId: null };
      case 'DeviceSessionNotesUpdated':
      case 'DeviceSessionActivityRecorded':
      case 'DeviceSessionArtifactStored':
        return state;
      default:
        return unreachable(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RequestSession': {
        if (state.status !== null) throw new AppError('ALREADY_EXISTS', 'Session already exists');
        return [{ type: 'DeviceSessionRequested', payload: command.session }];
      }
      case 'MarkSessionStarted':
        if (state.status !== 'starting') return [];
        return [{ type: 'DeviceSessionStarted', payload: { sessionId: command.sessionId, screen: command.screen } }];
      case 'MarkSessionFailed':
        if (state.status !== 'starting') return [];
        return [{ type: 'DeviceSessionFailed', payload: { sessionId: command.sessionId, code: command.code, reason: command.reason } }];
      case 'EndSession':
        requireExisting(state);
        if (!isOpen(state)) return [];
        return [{ type: 'DeviceSessionEnded', payload: { sessionId: command.sessionId, reason: command.reason } }];
      case 'DeleteSession':
        requireExisting(state);
        if (isOpen(state)) throw new AppError('CONFLICT', 'End the session before deleting it');
        return [{ type: 'DeviceSessionDeleted', payload: { sessionId: command.sessionId } }];
      case 'RenameSession':
        requireExisting(state);
        if (state.session?.name === command.name) return [];
        return [{ type: 'DeviceSessionRenamed', payload: { sessionId: command.sessionId, name: command.name } }];
      case 'UpdateSessionMetadata':
        requireExisting(state);
        return [{ type: 'DeviceSessionMetadataUpdated', payload: { sessionId: command.sessionId, metadata: command.metadata } }];
      case 'UpdateSessionNotes':
        requireExisting(state);
        return [{ type: 'DeviceSessionNotesUpdated', payload: { sessionId: command.sessionId, notes: command.notes } }];
      case 'RecordActivity':
        requireActive(state);
        return [{ type: 'DeviceSessionActivityRecorded', payload: { sessionId: command.sessionId, activityId: command.activityId, kind: command.kind, detail: command.detail } }];
      case 'StoreArtifact': {
        requireExisting(state);
        const { type: _type, artifactType, ...rest } = command;
        return [{ type: 'DeviceSessionArtifactStored', payload: { ...rest, type: artifactType } }];
      }
      case 'StartRecording':
        requireActive(state);
        if (state.recordingId) return [];
        return [{ type: 'DeviceSessionRecordingStarted', payload: { sessionId: command.sessionId, recordingId: command.recordingId } }];
      case 'StopRecording':
        requireExisting(state);
        if (!state.recordingId) return [];
        return [{ type: 'DeviceSessionRecordingStopped', payload: { sessionId: command.sessionId, recordingId: state.recordingId, frames: command.frames, artifactId: command.artifactId } }];
      default:
        return unreachable(command, 'command');
    }
  },
};
