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
});
