import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ActivityKind, ArtifactType, DebugProtocolName, SessionEndReason, SessionEvent, SessionOutcome, SessionStatus } from '#events/df/sessions.js';

type Requested = Extract<SessionEvent, { type: 'DeviceSessionRequested' }>['payload'];

export interface SessionState {
  status: SessionStatus | null;
  deleted: boolean;
  session: Requested | null;
  recordingId: string | null;
  /** Whether a video of the session is stored (made and not expired). */
  video: boolean;
  /** Debug protocols granted, by user. */
  debug: Record<number, DebugProtocolName[]>;
  /** The timeline's last entry when it is typed text that more text may extend. */
  typing: Typing | null;
  /** The test outcome its runner set, and why. */
  outcome: { outcome: SessionOutcome; reason: string | null } | null;
}

interface Typing {
  activityId: string;
  /** `via:user`: one typist's text on one channel. */
  by: string;
  /** When the burst last grew (ISO 8601). */
  at: string;
  characters: number;
  inputs: number;
  detail: Record<string, unknown>;
}

/** How typed text shows on the timeline: typed text can hold secrets, so its length, never its content. */
export const typedText = (characters: number) => `[${characters} characters]`;

export type SessionCommand =
  | { type: 'RequestSession'; session: Requested }
  | { type: 'MarkSessionStarted'; sessionId: string; screen: { width: number; height: number; scale: number } }
  | { type: 'MarkSessionFailed'; sessionId: string; code: string; reason: string }
  | { type: 'EndSession'; sessionId: string; reason: SessionEndReason }
  | { type: 'DeleteSession'; sessionId: string }
  | { type: 'RenameSession'; sessionId: string; name: string }
  | { type: 'UpdateSessionMetadata'; sessionId: string; metadata: Record<string, unknown> }
  | { type: 'UpdateSessionNotes'; sessionId: string; notes: string }
  | { type: 'SetSessionOutcome'; sessionId: string; outcome: SessionOutcome; reason: string | null }
  | { type: 'RecordActivity'; sessionId: string; activityId: string; kind: ActivityKind; detail: Record<string, unknown> }
  /**
   * Typed text, which arrived at `receivedAt` and was typed on the device by `at`: extends the
   * timeline's last entry when that is text of the same typist (`by`) that last grew at most
   * `windowMs` before this text arrived, else a new entry. The pause is measured from the previous
   * input's end to this one's arrival, so a slow device does not split a burst a client sends in order.
   */
  | { type: 'RecordTyping'; sessionId: string; activityId: string; detail: Record<string, unknown>; by: string; receivedAt: string; at: string; characters: number; windowMs: number }
  | { type: 'StoreArtifact'; sessionId: string; artifactId: string; artifactType: ArtifactType; name: string; blobKey: string; contentType: string; size: number }
  | { type: 'StartRecording'; sessionId: string; recordingId: string }
  | { type: 'StopRecording'; sessionId: string; frames: number; artifactId: string | null; video?: { format: 'mp4'; durationMs: number; bytes: number } }
  | { type: 'ExpireVideo'; sessionId: string; retentionDays: number }
  | { type: 'GrantDebugAccess'; sessionId: string; userId: number; protocols: DebugProtocolName[] }
  | { type: 'WithdrawDebugAccess'; sessionId: string; userId: number; protocols: DebugProtocolName[] };

const isOpen = (s: SessionState) => s.status === 'starting' || s.status === 'active';

function requireExisting(state: SessionState): void {
  if (state.status === null || state.deleted) throw new AppError('NOT_FOUND', 'Session not found');
}

function requireActive(state: SessionState): void {
  requireExisting(state);
  if (state.status !== 'active') throw new AppError('SESSION_NOT_ACTIVE', `The session is ${state.status}`);
}

/** One device session: starting → active → ended, or starting → failed; then it may be deleted. */
export const sessionDecider = defineDecider<SessionCommand, SessionEvent, SessionState>({
  initialState: () => ({ status: null, deleted: false, session: null, recordingId: null, video: false, debug: {}, typing: null, outcome: null }),

  evolve: {
    DeviceSessionRequested: (state, event) => ({ ...state, status: 'starting', session: event.payload }),
    DeviceSessionStarted: (state, event) => ({ ...state, status: 'active' }),
    DeviceSessionFailed: (state, event) => ({ ...state, status: 'failed', recordingId: null, typing: null }),
    DeviceSessionEnded: (state, event) => ({ ...state, status: 'ended', recordingId: null, typing: null }),
    DeviceSessionDeleted: (state, event) => ({ ...state, deleted: true }),
    DeviceSessionRenamed: (state, event) => state.session ? { ...state, session: { ...state.session, name: event.payload.name } } : state,
    DeviceSessionMetadataUpdated: (state, event) => state.session ? { ...state, session: { ...state.session, metadata: event.payload.metadata } } : state,
    // Any other entry on the timeline ends a burst of typing: text typed after it is a new entry.
    DeviceSessionRecordingStarted: (state, event) => ({ ...state, recordingId: event.payload.recordingId, typing: null }),
    DeviceSessionRecordingStopped: (state, event) => ({ ...state, recordingId: null, typing: null, video: state.video || event.payload.video !== undefined }),
    DeviceSessionVideoExpired: (state) => ({ ...state, video: false }),
    DeviceSessionNotesUpdated: (state, event) => ({ ...state, typing: null }),
    DeviceSessionOutcomeSet: (state, { payload: p }) => ({ ...state, outcome: { outcome: p.outcome, reason: p.reason } }),
    DeviceSessionActivityRecorded: (state, { payload: p }) => ({ ...state, typing: p.typing ? { activityId: p.activityId, ...p.typing, detail: p.detail } : null }),
    DeviceSessionActivityExtended: (state, { payload: p }) => ({ ...state, typing: { activityId: p.activityId, ...p.typing, detail: p.detail } }),
    DeviceSessionArtifactStored: (state, event) => state,
    DeviceSessionDebugAccessGranted: (state, { payload: p }) => ({ ...state, typing: null, debug: { ...state.debug, [p.userId]: [...new Set([...(state.debug[p.userId] ?? []), ...p.protocols])] } }),
    DeviceSessionDebugAccessWithdrawn: (state, { payload: p }) => ({ ...state, typing: null, debug: { ...state.debug, [p.userId]: (state.debug[p.userId] ?? []).filter((x) => !p.protocols.includes(x)) } }),
  },

  decide: {
    RequestSession: (command, state) => {
      if (state.status !== null) throw new AppError('ALREADY_EXISTS', 'Session already exists');
      return [{ type: 'DeviceSessionRequested', payload: command.session }];
    },
    MarkSessionStarted: (command, state) => {
      if (state.status !== 'starting') return [];
      return [{ type: 'DeviceSessionStarted', payload: { sessionId: command.sessionId, screen: command.screen } }];
    },
    MarkSessionFailed: (command, state) => {
      if (state.status !== 'starting') return [];
      return [{ type: 'DeviceSessionFailed', payload: { sessionId: command.sessionId, code: command.code, reason: command.reason } }];
    },
    EndSession: (command, state) => {
      requireExisting(state);
      if (!isOpen(state)) return [];
      return [{ type: 'DeviceSessionEnded', payload: { sessionId: command.sessionId, reason: command.reason } }];
    },
    DeleteSession: (command, state) => {
      requireExisting(state);
      if (isOpen(state)) throw new AppError('CONFLICT', 'End the session before deleting it');
      return [{ type: 'DeviceSessionDeleted', payload: { sessionId: command.sessionId } }];
    },
    RenameSession: (command, state) => {
      requireExisting(state);
      if (state.session?.name === command.name) return [];
      return [{ type: 'DeviceSessionRenamed', payload: { sessionId: command.sessionId, name: command.name } }];
    },
    UpdateSessionMetadata: (command, state) => {
      requireExisting(state);
      return [{ type: 'DeviceSessionMetadataUpdated', payload: { sessionId: command.sessionId, metadata: command.metadata } }];
    },
    UpdateSessionNotes: (command, state) => {
      requireExisting(state);
      return [{ type: 'DeviceSessionNotesUpdated', payload: { sessionId: command.sessionId, notes: command.notes } }];
    },
    // Any time, an ended session too: a runner may learn its result after the session closed.
    SetSessionOutcome: (command, state) => {
      requireExisting(state);
      if (state.outcome?.outcome === command.outcome && state.outcome.reason === command.reason) return [];
      return [{ type: 'DeviceSessionOutcomeSet', payload: { sessionId: command.sessionId, outcome: command.outcome, reason: command.reason } }];
    },
    RecordActivity: (command, state) => {
      requireActive(state);
      return [{ type: 'DeviceSessionActivityRecorded', payload: { sessionId: command.sessionId, activityId: command.activityId, kind: command.kind, detail: command.detail } }];
    },
    RecordTyping: (command, state) => {
      requireActive(state);
      const last = state.typing;
      const gap = last ? Date.parse(command.receivedAt) - Date.parse(last.at) : Infinity;
      // Replicas' clocks may differ a little: a gap either way within the window continues the burst.
      if (last && last.by === command.by && Math.abs(gap) <= command.windowMs) {
        const characters = last.characters + command.characters;
        const inputs = last.inputs + 1;
        const detail = { ...last.detail, text: typedText(characters), characters, inputs, until: command.at };
        return [{ type: 'DeviceSessionActivityExtended', payload: { sessionId: command.sessionId, activityId: last.activityId, detail, typing: { by: command.by, at: command.at, characters, inputs } } }];
      }
      const detail = { ...command.detail, text: typedText(command.characters), characters: command.characters, inputs: 1 };
      const typing = { by: command.by, at: command.at, characters: command.characters, inputs: 1 };
      return [{ type: 'DeviceSessionActivityRecorded', payload: { sessionId: command.sessionId, activityId: command.activityId, kind: 'control', detail, typing } }];
    },
    StoreArtifact: (command, state) => {
      requireExisting(state);
      const { type: _type, artifactType, ...rest } = command;
      return [{ type: 'DeviceSessionArtifactStored', payload: { ...rest, type: artifactType } }];
    },
    StartRecording: (command, state) => {
      requireActive(state);
      if (state.recordingId) return [];
      return [{ type: 'DeviceSessionRecordingStarted', payload: { sessionId: command.sessionId, recordingId: command.recordingId } }];
    },
    GrantDebugAccess: (command, state) => {
      requireActive(state);
      const held = new Set(state.debug[command.userId] ?? []);
      const added = [...new Set(command.protocols)].filter((p) => !held.has(p));
      if (added.length === 0) return [];
      return [{ type: 'DeviceSessionDebugAccessGranted', payload: { sessionId: command.sessionId, userId: command.userId, protocols: added } }];
    },
    WithdrawDebugAccess: (command, state) => {
      requireExisting(state);
      const held = new Set(state.debug[command.userId] ?? []);
      const removed = [...new Set(command.protocols)].filter((p) => held.has(p));
      if (removed.length === 0) return [];
      return [{ type: 'DeviceSessionDebugAccessWithdrawn', payload: { sessionId: command.sessionId, userId: command.userId, protocols: removed } }];
    },
    ExpireVideo: (command, state) => {
      if (state.status === null || !state.video) return [];
      return [{ type: 'DeviceSessionVideoExpired', payload: { sessionId: command.sessionId, retentionDays: command.retentionDays } }];
    },
    StopRecording: (command, state) => {
      requireExisting(state);
      if (!state.recordingId) return [];
      return [{ type: 'DeviceSessionRecordingStopped', payload: { sessionId: command.sessionId, recordingId: state.recordingId, frames: command.frames, artifactId: command.artifactId, ...(command.video ? { video: command.video } : {}) } }];
    },
  },
});
