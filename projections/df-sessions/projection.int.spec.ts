import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionSpec, SPEC_TIME, type ProjectionSpec } from '../testing.js';
import { dfSessionsProjection } from './projection.js';
import {
  activeSessionsPastLimits,
  closedAndKnownSessions,
  findSession,
  listActivities,
  listArtifacts,
  listSessions,
  sessionById,
  testEventActivities,
  testEventDetails,
  webdriverActivities,
  workspacesWithActiveSessions,
} from './queries.js';
import { closedSessionVerdicts } from './verdicts.js';
import { sessionVideos } from './videos.js';

const S1 = 'sess-1';
const scope = { companyId: 1, workspaceId: 1 };
const at = (occurredAt: string, actorId: number | string = 1) => ({ metadata: { occurredAt, actorId } });
const requested = {
  type: 'DeviceSessionRequested',
  payload: { sessionId: S1, deviceId: 'dev-1', hostId: 'host-1', deviceName: 'Pixel', name: 'Login flow', type: 'manual', buildName: 'b42', metadata: { ci: true }, ownerId: 3, companyId: 1, workspaceId: 1 },
};
const started = { type: 'DeviceSessionStarted', payload: { sessionId: S1, screen: { width: 1080, height: 2400, scale: 1 } }, ...at('2026-01-02T03:04:06.000Z') };
const paging = { page: 0, size: 10, sortBy: 'startedAt' as const, sortDir: 'desc' as const };
let spec: ProjectionSpec;
beforeAll(async () => (spec = await projectionSpec(dfSessionsProjection)));
afterAll(() => spec.close());
beforeEach(() => spec.reset());

describe('df-sessions read model', () => {
  it('given a session requested and started, it is active with its screen, in its workspace only, and the timeline shows both', async () => {
    await spec.given(requested, started);
    expect(await findSession(spec.db, scope, S1)).toMatchObject({
      id: S1, status: 'active', deviceId: 'dev-1', deviceName: 'Pixel', ownerId: 3, buildName: 'b42', metadata: { ci: true },
      startedAt: SPEC_TIME, readyAt: '2026-01-02T03:04:06.000Z', screen: { width: 1080, height: 2400, scale: 1 }, hostId: 'host-1',
    });
    expect(await findSession(spec.db, { companyId: 1, workspaceId: 2 }, S1)).toBeNull();
    expect((await listSessions(spec.db, scope, { status: ['active'], buildName: 'b42' }, paging)).totalElements).toBe(1);
    expect((await listActivities(spec.db, S1, { page: 0, size: 10 })).content.map((a) => a.detail.event)).toEqual(['requested', 'started']);
  });

  it('given an outcome set and then changed, the session shows the last one with its reason, and the outcome filter finds it', async () => {
    await spec.given(
      requested,
      started,
      { type: 'DeviceSessionOutcomeSet', payload: { sessionId: S1, outcome: 'passed', reason: null } },
      { type: 'DeviceSessionOutcomeSet', payload: { sessionId: S1, outcome: 'failed', reason: 'expected 1 to be 2' } },
    );
    expect(await findSession(spec.db, scope, S1)).toMatchObject({ outcome: 'failed', outcomeReason: 'expected 1 to be 2' });
    expect((await listSessions(spec.db, scope, { outcome: ['failed'] }, paging)).totalElements).toBe(1);
    expect((await listSessions(spec.db, scope, { outcome: ['passed'] }, paging)).totalElements).toBe(0);
  });

  it('given activities, notes and a recording, keeps the latest activity time, the notes and the recording’s frames', async () => {
    await spec.given(
      requested,
      started,
      { type: 'DeviceSessionActivityRecorded', payload: { sessionId: S1, activityId: 'a1', kind: 'control', detail: { action: 'tap' } }, ...at('2026-01-02T03:10:00.000Z', 3) },
      { type: 'DeviceSessionNotesUpdated', payload: { sessionId: S1, notes: 'flaky button' } },
      { type: 'DeviceSessionRecordingStarted', payload: { sessionId: S1, recordingId: 'r1' } },
      { type: 'DeviceSessionRecordingStopped', payload: { sessionId: S1, recordingId: 'r1', frames: 42, artifactId: 'art-1' } },
      { type: 'DeviceSessionArtifactStored', payload: { sessionId: S1, artifactId: 'art-1', type: 'recording', name: 'rec', blobKey: 'k1', contentType: 'video/x', size: 99 } },
    );
    const s = await sessionById(spec.db, S1);
    expect(s).toMatchObject({ lastActivityAt: '2026-01-02T03:10:00.000Z', notes: 'flaky button', recording: { recordingId: null, frames: 42, artifactId: 'art-1' } });
    expect((await listActivities(spec.db, S1, { page: 0, size: 10 }, ['control'])).content).toEqual([
      { id: 'a1', kind: 'control', detail: { action: 'tap' }, actorId: '3', at: '2026-01-02T03:10:00.000Z' },
    ]);
    expect((await listArtifacts(spec.db, S1)).map((a) => [a.id, a.size, a.blobKey])).toEqual([['art-1', 99, 'k1']]);
  });

  it('given typed text extended by more typing, the one entry keeps its place and time and takes the whole burst’s detail', async () => {
    const typing = { by: 'viewer:3', characters: 2, inputs: 1, at: '2026-01-02T03:10:00.000Z' };
    await spec.given(
      requested,
      started,
      { type: 'DeviceSessionActivityRecorded', payload: { sessionId: S1, activityId: 't1', kind: 'control', detail: { action: 'text', text: '[2 characters]' }, typing }, ...at('2026-01-02T03:10:00.000Z', 3) },
      {
        type: 'DeviceSessionActivityExtended',
        payload: { sessionId: S1, activityId: 't1', detail: { action: 'text', text: '[5 characters]', characters: 5, inputs: 2 }, typing: { ...typing, characters: 5, inputs: 2, at: '2026-01-02T03:10:01.000Z' } },
        ...at('2026-01-02T03:10:01.000Z', 4),
      },
    );
    expect((await listActivities(spec.db, S1, { page: 0, size: 10 }, ['control'])).content).toEqual([
      { id: 't1', kind: 'control', detail: { action: 'text', text: '[5 characters]', characters: 5, inputs: 2 }, actorId: '3', at: '2026-01-02T03:10:00.000Z' },
    ]);
    expect((await sessionById(spec.db, S1))?.lastActivityAt).toBe('2026-01-02T03:10:01.000Z');
  });

  it('given a session ended and then deleted, it ends with its reason and then disappears from the workspace', async () => {
    await spec.given(requested, started, { type: 'DeviceSessionEnded', payload: { sessionId: S1, reason: 'user' }, ...at('2026-01-02T04:00:00.000Z') });
    expect(await findSession(spec.db, scope, S1)).toMatchObject({ status: 'ended', endedAt: '2026-01-02T04:00:00.000Z', endReason: 'user' });
    await spec.given({ type: 'DeviceSessionDeleted', payload: { sessionId: S1 } });
    expect(await findSession(spec.db, scope, S1)).toBeNull();
    expect((await listSessions(spec.db, scope, {}, paging)).totalElements).toBe(0);
  });

  it('given a session recorded three times, two of them into videos, lists both videos from their recordings’ starts; an expiry marks both, a deletion drops them', async () => {
    const recorded = (id: string, from: string, to: string, video?: { durationMs: number; bytes: number }) => [
      { type: 'DeviceSessionRecordingStarted', payload: { sessionId: S1, recordingId: id }, ...at(from) },
      { type: 'DeviceSessionRecordingStopped', payload: { sessionId: S1, recordingId: id, frames: 0, artifactId: null, ...(video ? { video: { format: 'mp4', ...video } } : {}) }, ...at(to) },
    ];
    await spec.given(
      requested,
      started,
      ...recorded('r1', '2026-01-02T03:05:00.000Z', '2026-01-02T03:06:00.000Z', { durationMs: 60_000, bytes: 1_000 }),
      ...recorded('r2', '2026-01-02T03:07:00.000Z', '2026-01-02T03:07:30.000Z'),
      ...recorded('r3', '2026-01-02T03:08:00.000Z', '2026-01-02T03:10:00.000Z', { durationMs: 120_000, bytes: 2_000 }),
    );
    expect(await sessionVideos(spec.db, S1)).toEqual([
      { recordingId: 'r1', startedAt: '2026-01-02T03:05:00.000Z', format: 'mp4', durationMs: 60_000, bytes: 1_000, storedAt: '2026-01-02T03:06:00.000Z', expiredAt: null },
      { recordingId: 'r3', startedAt: '2026-01-02T03:08:00.000Z', format: 'mp4', durationMs: 120_000, bytes: 2_000, storedAt: '2026-01-02T03:10:00.000Z', expiredAt: null },
    ]);
    // The session's video is still the latest one.
    expect((await sessionById(spec.db, S1))?.video).toMatchObject({ recordingId: 'r3', durationMs: 120_000 });
    await spec.given({ type: 'DeviceSessionVideoExpired', payload: { sessionId: S1, retentionDays: 2 }, ...at('2026-01-05T00:00:00.000Z') });
    expect((await sessionVideos(spec.db, S1)).map((v) => [v.recordingId, v.expiredAt])).toEqual([
      ['r1', '2026-01-05T00:00:00.000Z'],
      ['r3', '2026-01-05T00:00:00.000Z'],
    ]);
    await spec.given({ type: 'DeviceSessionDeleted', payload: { sessionId: S1 } });
    expect(await sessionVideos(spec.db, S1)).toEqual([]);
  });

  it('given a failed start, the session is failed with the reason on its timeline', async () => {
    await spec.given(requested, { type: 'DeviceSessionFailed', payload: { sessionId: S1, code: 'DEVICE_GONE', reason: 'unplugged' } });
    expect(await findSession(spec.db, scope, S1)).toMatchObject({ status: 'failed', endReason: 'unplugged' });
    expect((await listActivities(spec.db, S1, { page: 0, size: 10 })).content.at(-1)?.detail).toEqual({ event: 'failed', code: 'DEVICE_GONE', reason: 'unplugged' });
  });

  it('answers the sweep: the workspaces with active sessions, those past their limits and why, closed and unknown sessions', async () => {
    await spec.given(requested, started, { type: 'DeviceSessionActivityRecorded', payload: { sessionId: S1, activityId: 'a1', kind: 'control', detail: {} }, ...at('2026-01-02T03:10:00.000Z') });
    const now = new Date('2026-01-02T04:10:00.000Z'); // 66 minutes after the start, 60 after the last activity
    const limits = (maxSessionSeconds: number, idleTimeoutSeconds: number) => [{ workspaceId: 1, maxSessionSeconds, idleTimeoutSeconds }];
    expect(await workspacesWithActiveSessions(spec.db)).toEqual([1]);
    expect(await activeSessionsPastLimits(spec.db, now, 86_400, [1], [])).toEqual([]);
    expect(await activeSessionsPastLimits(spec.db, now, 3_600, [1], [])).toEqual([{ sessionId: S1, reason: 'max-duration' }]);
    expect(await activeSessionsPastLimits(spec.db, now, 60, [1], limits(86_400, 86_400))).toEqual([]);
    expect(await activeSessionsPastLimits(spec.db, now, 86_400, [1], limits(3_600, 86_400))).toEqual([{ sessionId: S1, reason: 'max-duration' }]);
    expect(await activeSessionsPastLimits(spec.db, now, 86_400, [1], limits(86_400, 3_600))).toEqual([{ sessionId: S1, reason: 'idle-timeout' }]);
    expect(await activeSessionsPastLimits(spec.db, now, 86_400, [1], limits(86_400, 3_601))).toEqual([]);
    expect(await activeSessionsPastLimits(spec.db, now, 60, [2], [])).toEqual([]);
    expect(await closedAndKnownSessions(spec.db, [S1, 'sess-unknown'])).toEqual({ closed: new Set(), known: new Set([S1]) });
    await spec.given({ type: 'DeviceSessionEnded', payload: { sessionId: S1, reason: 'user' }, ...at('2026-01-02T04:00:00.000Z') });
    expect(await closedAndKnownSessions(spec.db, [S1])).toEqual({ closed: new Set([S1]), known: new Set([S1]) });
    expect(await workspacesWithActiveSessions(spec.db)).toEqual([]);
  });

  it('reads the test events and the WebDriver commands of a session from its timeline, in order, by type and in pages', async () => {
    const entry = (activityId: string, kind: string, detail: Record<string, unknown>, time: string) => ({ type: 'DeviceSessionActivityRecorded', payload: { sessionId: S1, activityId, kind, detail }, ...at(time) });
    await spec.given(
      requested,
      started,
      entry('t1', 'custom', { source: 'automation', type: 'test_started', name: 'a' }, '2026-01-02T03:05:00.000Z'),
      entry('w1', 'custom', { source: 'webdriver', command: 'findElement' }, '2026-01-02T03:05:01.000Z'),
      entry('t2', 'custom', { source: 'automation', type: 'test_passed', name: 'a' }, '2026-01-02T03:05:02.000Z'),
      entry('c1', 'control', { source: 'automation', type: 'test_failed', name: 'not a test event' }, '2026-01-02T03:05:03.000Z'),
    );
    expect(await testEventActivities(spec.db, S1, { page: 0, size: 10 })).toEqual({
      rows: [
        { activityId: 't1', detail: { source: 'automation', type: 'test_started', name: 'a' }, at: '2026-01-02T03:05:00.000Z' },
        { activityId: 't2', detail: { source: 'automation', type: 'test_passed', name: 'a' }, at: '2026-01-02T03:05:02.000Z' },
      ],
      total: 2,
    });
    expect(await testEventActivities(spec.db, S1, { page: 0, size: 1, sortDir: 'desc' })).toMatchObject({ rows: [{ activityId: 't2' }], total: 2 });
    expect(await testEventActivities(spec.db, S1, { page: 0, size: 10 }, ['test_started'])).toMatchObject({ rows: [{ activityId: 't1' }], total: 1 });
    expect((await testEventDetails(spec.db, S1)).map((d) => d.type)).toEqual(['test_started', 'test_passed']);
    expect(await webdriverActivities(spec.db, S1)).toEqual([{ activityId: 'w1', detail: { source: 'webdriver', command: 'findElement' } }]);
  });

  it('lists a device’s closed sessions that say something of it, newest first, after a time, as many as asked', async () => {
    const session = (id: string, device: string) => ({ ...requested, payload: { ...requested.payload, sessionId: id, deviceId: device } });
    const ended = (id: string, reason: string, when: string) => ({ type: 'DeviceSessionEnded', payload: { sessionId: id, reason }, ...at(when) });
    await spec.given(
      session('s1', 'dev-1'),
      { type: 'DeviceSessionOutcomeSet', payload: { sessionId: 's1', outcome: 'failed', reason: 'first' } },
      ended('s1', 'user', '2026-01-02T04:00:00.000Z'),
      session('s2', 'dev-1'),
      ended('s2', 'user', '2026-01-02T05:00:00.000Z'),
      session('s3', 'dev-1'),
      ended('s3', 'device-error', '2026-01-02T06:00:00.000Z'),
      session('s4', 'dev-1'),
      { type: 'DeviceSessionFailed', payload: { sessionId: 's4', code: 'DEVICE_ERROR', reason: 'minitouch did not start' }, ...at('2026-01-02T07:00:00.000Z') },
      session('s5', 'dev-1'),
      { type: 'DeviceSessionOutcomeSet', payload: { sessionId: 's5', outcome: 'passed', reason: null } },
      session('s6', 'dev-2'),
      ended('s6', 'device-error', '2026-01-02T08:00:00.000Z'),
    );
    const ids = async (since: string | null, limit: number) => (await closedSessionVerdicts(spec.db, 'dev-1', since, limit, ['device-error'])).map((v) => v.sessionId);
    // s2 ended by its user without an outcome says nothing; s5 is still open; s6 is another device's.
    expect(await ids(null, 10)).toEqual(['s4', 's3', 's1']);
    expect(await ids(null, 2)).toEqual(['s4', 's3']);
    expect(await ids('2026-01-02T05:30:00.000Z', 10)).toEqual(['s4', 's3']);
    expect((await closedSessionVerdicts(spec.db, 'dev-1', null, 10, ['device-error']))[0]).toEqual({ sessionId: 's4', status: 'failed', endReason: 'minitouch did not start', outcome: null, outcomeReason: null, endedAt: '2026-01-02T07:00:00.000Z' });
  });
});
