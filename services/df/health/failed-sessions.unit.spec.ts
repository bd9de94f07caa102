import { describe, expect, it } from 'vitest';
import { deviceHealthDecider, type DeviceHealthCommand } from './decide.js';
import { failedInARow, failedSessionsReason, verdictOf } from './failed-sessions.js';

type Closed = Parameters<typeof verdictOf>[0];
const ended = (endReason: string, outcome: Closed['outcome'] = null, outcomeReason: string | null = null): Closed => ({ status: 'ended', endReason, outcome, outcomeReason });
const unprepared = (message: string): Closed => ({ status: 'failed', endReason: message, outcome: null, outcomeReason: null });

describe('what a closed session says of its device', () => {
  it('takes the runner’s outcome first, then a failed preparation, then an end of the device’s own; every other end says nothing', () => {
    expect(verdictOf(ended('user', 'failed', 'login button missing'))).toEqual({ verdict: 'failed', why: 'outcome failed: login button missing' });
    // The runner's word wins over how the session ended.
    expect(verdictOf(ended('device-error', 'passed'))).toEqual({ verdict: 'passed' });
    expect(verdictOf(unprepared('minitouch did not start'))).toEqual({ verdict: 'failed', why: 'could not be prepared: minitouch did not start' });
    for (const reason of ['device-error', 'device-reset', 'webdriver-session-failed']) expect(verdictOf(ended(reason))).toEqual({ verdict: 'failed', why: `ended ${reason}` });
    for (const reason of ['user', 'idle-timeout', 'abandoned', 'host-lost', 'max-duration', 'webdriver-session-deleted']) expect(verdictOf(ended(reason)).verdict, reason).toBe('none');
  });

  it('counts failed sessions from the newest until one passed, skipping those without a verdict, and names the newest failure', () => {
    expect(failedInARow([])).toEqual({ count: 0, last: null });
    expect(failedInARow([ended('user', 'failed', 'third'), ended('user'), ended('device-error'), ended('user', 'failed', 'first')])).toEqual({ count: 3, last: 'outcome failed: third' });
    // A passed session ends the run: the failures before it do not count.
    expect(failedInARow([ended('device-reset'), ended('user', 'passed'), ended('user', 'failed'), ended('user', 'failed')])).toEqual({ count: 1, last: 'ended device-reset' });
    expect(failedInARow([ended('user', 'passed'), ended('user', 'failed')])).toEqual({ count: 0, last: null });
    expect(failedSessionsReason(3, 'outcome failed: third')).toBe('3 sessions in a row failed; the last: outcome failed: third');
  });
});

describe('the quarantine after failed sessions', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const tenant = { companyId: 1, workspaceIds: null };
  const run = (commands: DeviceHealthCommand[]) => {
    let state = deviceHealthDecider.initialState();
    const events = commands.map((c) => {
      const made = deviceHealthDecider.decide(c, state);
      state = made.reduce(deviceHealthDecider.evolve, state);
      return made;
    });
    return { state, events };
  };
  const failed: DeviceHealthCommand = { type: 'QuarantineAfterFailedSessions', deviceId: 'd1', reason: '3 sessions in a row failed; the last: ended device-error', at, ...tenant };

  it('quarantines the device (cause sessions-failed, the reason as given), once; a release starts the count from then', () => {
    const { state, events } = run([failed, failed]);
    expect(events[0]).toEqual([{ type: 'DeviceHealthChanged', payload: { deviceId: 'd1', ...tenant, from: null, cause: 'sessions-failed', health: { state: 'quarantined', reasons: ['3 sessions in a row failed; the last: ended device-error'], checkedAt: at } } }]);
    // Quarantined already: the same finding adds nothing.
    expect(events[1]).toEqual([]);
    expect(state.sessionsCountFrom).toBeNull();
    const released = run([failed, { type: 'ReleaseQuarantine', deviceId: 'd1', at: '2026-01-01T01:00:00.000Z', ...tenant }]);
    expect(released.state.health?.state).toBe('healthy');
    expect(released.state.sessionsCountFrom).toBe('2026-01-01T01:00:00.000Z');
  });

  it('leaves a standing quarantine of another cause as it is, and takes a device out of maintenance', () => {
    const reset: DeviceHealthCommand = { type: 'QuarantineAfterFailedReset', deviceId: 'd1', reason: 'system/font_scale kept', at, ...tenant };
    expect(run([reset, failed]).events[1]).toEqual([]);
    const maintained = run([{ type: 'StartMaintenance', deviceId: 'd1', reason: 'cable', until: '2026-01-02T00:00:00.000Z', at, ...tenant }, failed]);
    expect(maintained.state.health).toMatchObject({ state: 'quarantined' });
    expect(maintained.state.health?.until).toBeUndefined();
  });
});
