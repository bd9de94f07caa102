import { describe, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { sessionDecider } from './decide.js';
import type { SessionEvent } from '#events/df/sessions.js';

const spec = deciderSpec(sessionDecider);
const sessionId = 's-1';
const session = {
  sessionId,
  deviceId: 'd-1',
  hostId: 'h',
  deviceName: 'Pixel',
  name: 'Checkout',
  type: 'manual' as const,
  buildName: 'b-42',
  metadata: {},
  ownerId: 7,
  companyId: 1,
  workspaceId: 1,
};
const requested: SessionEvent = { type: 'DeviceSessionRequested', payload: session };
const screen = { width: 720, height: 1280, scale: 2 };
const started: SessionEvent = { type: 'DeviceSessionStarted', payload: { sessionId, screen } };
const ended: SessionEvent = { type: 'DeviceSessionEnded', payload: { sessionId, reason: 'user' } };

describe('session decider', () => {
  it('requests a session once', () => {
    spec.given([]).when({ type: 'RequestSession', session }).then([requested]);
    spec.given([requested]).when({ type: 'RequestSession', session }).thenRefused('ALREADY_EXISTS');
  });

  it('starts or fails only while starting', () => {
    spec.given([requested]).when({ type: 'MarkSessionStarted', sessionId, screen }).then([started]);
    spec.given([requested, started]).when({ type: 'MarkSessionFailed', sessionId, code: 'X', reason: 'y' }).then([]);
    spec
      .given([requested])
      .when({ type: 'MarkSessionFailed', sessionId, code: 'TIMEOUT', reason: 'slow' })
      .then([{ type: 'DeviceSessionFailed', payload: { sessionId, code: 'TIMEOUT', reason: 'slow' } }]);
  });

  it('ends an open session once; ending again changes nothing', () => {
    spec.given([requested, started]).when({ type: 'EndSession', sessionId, reason: 'user' }).then([ended]);
    spec.given([requested, started, ended]).when({ type: 'EndSession', sessionId, reason: 'user' }).then([]);
  });

  it('records activities only while active', () => {
    const record = { type: 'RecordActivity' as const, sessionId, activityId: 'a-1', kind: 'control' as const, detail: { action: 'tap' } };
    spec.given([requested, started]).when(record).then([{ type: 'DeviceSessionActivityRecorded', payload: { sessionId, activityId: 'a-1', kind: 'control', detail: { action: 'tap' } } }]);
    spec.given([requested]).when(record).thenRefused('SESSION_NOT_ACTIVE');
    spec.given([requested, started, ended]).when(record).thenRefused('SESSION_NOT_ACTIVE');
    spec.given([]).when(record).thenRefused('NOT_FOUND');
  });

  it('deletes only an ended session, after which it is gone', () => {
    spec.given([requested, started]).when({ type: 'DeleteSession', sessionId }).thenRefused('CONFLICT');
    spec.given([requested, started, ended]).when({ type: 'DeleteSession', sessionId }).then([{ type: 'DeviceSessionDeleted', payload: { sessionId } }]);
    spec.given([requested, started, ended, { type: 'DeviceSessionDeleted', payload: { sessionId } }]).when({ type: 'RenameSession', sessionId, name: 'x' }).thenRefused('NOT_FOUND');
  });

  it('sets the outcome while open or after the end, changes it, repeats nothing, and refuses an unknown or removed session', () => {
    const passed: SessionEvent = { type: 'DeviceSessionOutcomeSet', payload: { sessionId, outcome: 'passed', reason: null } };
    const failed: SessionEvent = { type: 'DeviceSessionOutcomeSet', payload: { sessionId, outcome: 'failed', reason: 'boom' } };
    spec.given([requested, started]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'passed', reason: null }).then([passed]);
    spec.given([requested, started, ended]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'failed', reason: 'boom' }).then([failed]);
    spec.given([requested, started, passed]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'passed', reason: null }).then([]);
    spec.given([requested, started, passed]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'failed', reason: 'boom' }).then([failed]);
    spec.given([]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'passed', reason: null }).thenRefused('NOT_FOUND');
    spec.given([requested, started, ended, { type: 'DeviceSessionDeleted', payload: { sessionId } }]).when({ type: 'SetSessionOutcome', sessionId, outcome: 'passed', reason: null }).thenRefused('NOT_FOUND');
  });

  it('keeps renames idempotent', () => {
    spec.given([requested]).when({ type: 'RenameSession', sessionId, name: 'Checkout' }).then([]);
    spec.given([requested]).when({ type: 'RenameSession', sessionId, name: 'Cart' }).then([{ type: 'DeviceSessionRenamed', payload: { sessionId, name: 'Cart' } }]);
  });

  it('starts one recording at a time and stops it with its frame count', () => {
    spec
      .given([requested, started])
      .when({ type: 'StartRecording', sessionId, recordingId: 'r-1' })
      .then([{ type: 'DeviceSessionRecordingStarted', payload: { sessionId, recordingId: 'r-1' } }]);
    const recording: SessionEvent = { type: 'DeviceSessionRecordingStarted', payload: { sessionId, recordingId: 'r-1' } };
    spec.given([requested, started, recording]).when({ type: 'StartRecording', sessionId, recordingId: 'r-2' }).then([]);
    spec
      .given([requested, started, recording])
      .when({ type: 'StopRecording', sessionId, frames: 12, artifactId: 'a-9' })
      .then([{ type: 'DeviceSessionRecordingStopped', payload: { sessionId, recordingId: 'r-1', frames: 12, artifactId: 'a-9' } }]);
  });

  it('expires a stored video once, and nothing of a session without one', () => {
    const recording: SessionEvent = { type: 'DeviceSessionRecordingStarted', payload: { sessionId, recordingId: 'r-1' } };
    const withVideo: SessionEvent = { type: 'DeviceSessionRecordingStopped', payload: { sessionId, recordingId: 'r-1', frames: 0, artifactId: 'a-1', video: { format: 'mp4', durationMs: 5_000, bytes: 900 } } };
    const withoutVideo: SessionEvent = { type: 'DeviceSessionRecordingStopped', payload: { sessionId, recordingId: 'r-1', frames: 4, artifactId: 'a-1' } };
    const expired: SessionEvent = { type: 'DeviceSessionVideoExpired', payload: { sessionId, retentionDays: 7 } };
    spec.given([requested, started, recording, withVideo]).when({ type: 'ExpireVideo', sessionId, retentionDays: 7 }).then([expired]);
    spec.given([requested, started, recording, withVideo, expired]).when({ type: 'ExpireVideo', sessionId, retentionDays: 7 }).then([]);
    spec.given([requested, started, recording, withoutVideo]).when({ type: 'ExpireVideo', sessionId, retentionDays: 7 }).then([]);
  });

  it('joins a burst of typing into one entry, and starts a new one after a pause, another typist or another entry', () => {
    const base = { detail: { action: 'text', via: 'viewer', text: '[1 characters]' }, characters: 1, windowMs: 2_000 };
    const type = (activityId: string, by: string, at: string, characters = 1, receivedAt = at) => ({ type: 'RecordTyping' as const, sessionId, activityId, ...base, characters, by, receivedAt, at });
    const first: SessionEvent = {
      type: 'DeviceSessionActivityRecorded',
      payload: { sessionId, activityId: 't-1', kind: 'control', detail: { ...base.detail, text: '[3 characters]', characters: 3, inputs: 1 }, typing: { by: 'viewer:7', at: '2026-01-01T00:00:00.000Z', characters: 3, inputs: 1 } },
    };
    spec.given([requested, started]).when(type('t-1', 'viewer:7', '2026-01-01T00:00:00.000Z', 3)).then([first]);
    const extended: SessionEvent = {
      type: 'DeviceSessionActivityExtended',
      payload: {
        sessionId,
        activityId: 't-1',
        detail: { ...base.detail, text: '[4 characters]', characters: 4, inputs: 2, until: '2026-01-01T00:00:01.500Z' },
        typing: { by: 'viewer:7', at: '2026-01-01T00:00:01.500Z', characters: 4, inputs: 2 },
      },
    };
    spec.given([requested, started, first]).when(type('t-2', 'viewer:7', '2026-01-01T00:00:01.500Z')).then([extended]);
    // The window runs from the burst's last input, not its first.
    spec
      .given([requested, started, first, extended])
      .when(type('t-3', 'viewer:7', '2026-01-01T00:00:03.000Z'))
      .then([{ type: 'DeviceSessionActivityExtended', payload: { sessionId, activityId: 't-1', detail: { ...base.detail, text: '[5 characters]', characters: 5, inputs: 3, until: '2026-01-01T00:00:03.000Z' }, typing: { by: 'viewer:7', at: '2026-01-01T00:00:03.000Z', characters: 5, inputs: 3 } } }]);
    const fresh = (activityId: string, by: string, at: string): SessionEvent => ({
      type: 'DeviceSessionActivityRecorded',
      payload: { sessionId, activityId, kind: 'control', detail: { ...base.detail, characters: 1, inputs: 1 }, typing: { by, at, characters: 1, inputs: 1 } },
    });
    // The pause runs from the burst's last input's end to this input's arrival: a slow device (the
    // input arrived in time, its typing ended late) keeps the burst whole.
    spec
      .given([requested, started, first])
      .when(type('t-8', 'viewer:7', '2026-01-01T00:00:09.000Z', 1, '2026-01-01T00:00:01.000Z'))
      .then([{ type: 'DeviceSessionActivityExtended', payload: { sessionId, activityId: 't-1', detail: { ...base.detail, text: '[4 characters]', characters: 4, inputs: 2, until: '2026-01-01T00:00:09.000Z' }, typing: { by: 'viewer:7', at: '2026-01-01T00:00:09.000Z', characters: 4, inputs: 2 } } }]);
    // A pause longer than the window, another typist, another entry in between: a new entry each.
    spec.given([requested, started, first]).when(type('t-4', 'viewer:7', '2026-01-01T00:00:02.001Z')).then([fresh('t-4', 'viewer:7', '2026-01-01T00:00:02.001Z')]);
    spec.given([requested, started, first]).when(type('t-5', 'viewer:8', '2026-01-01T00:00:00.500Z')).then([fresh('t-5', 'viewer:8', '2026-01-01T00:00:00.500Z')]);
    const tap: SessionEvent = { type: 'DeviceSessionActivityRecorded', payload: { sessionId, activityId: 'a-1', kind: 'control', detail: { action: 'tap' } } };
    spec.given([requested, started, first, tap]).when(type('t-6', 'viewer:7', '2026-01-01T00:00:00.500Z')).then([fresh('t-6', 'viewer:7', '2026-01-01T00:00:00.500Z')]);
    spec.given([requested, started, first, ended]).when(type('t-7', 'viewer:7', '2026-01-01T00:00:00.500Z')).thenRefused('SESSION_NOT_ACTIVE');
  });
});
