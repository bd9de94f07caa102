import { describe, expect, it } from 'vitest';
import { deciderSpec } from '#shared/testing/decider-spec.js';
import { healthCheckDecider } from './decide.js';
import { healthCheckEvents, type HealthCheckEvent } from '#events/healthcheck/checks.js';

const spec = deciderSpec(healthCheckDecider);
const checkId = 'c-1';
const settings = { name: 'Nightly backup', description: '', intervalSeconds: 60, graceSeconds: 30, tags: ['ops'] };
const createdPayload = { checkId, ...settings, tokenHash: 'h', tokenPrefix: 'hct_abcd', createdBy: 7, companyId: 1, workspaceId: 2 };
const created: HealthCheckEvent = { type: 'HealthCheckCreated', payload: createdPayload };
const wentUp: HealthCheckEvent = { type: 'HealthCheckWentUp', payload: { checkId, heartbeatAt: '2030-01-01T00:00:00.000Z' } };
const overdue: HealthCheckEvent = {
  type: 'HealthCheckWentDown',
  payload: { checkId, reason: 'overdue', lastHeartbeatAt: '2030-01-01T00:00:00.000Z', deadline: '2030-01-01T00:01:30.000Z', message: null },
};
const paused: HealthCheckEvent = { type: 'HealthCheckPaused', payload: { checkId } };
const deleted: HealthCheckEvent = { type: 'HealthCheckDeleted', payload: { checkId } };
const beat = (at: string, status: 'up' | 'fail' = 'up', message: string | null = null) => ({ type: 'RecordHeartbeat' as const, checkId, at, status, message });
const markOverdue = (now: string) => ({ type: 'MarkOverdue' as const, checkId, lastHeartbeatAt: '2030-01-01T00:00:00.000Z', now });

describe('health check decider', () => {
  describe('creation', () => {
    it('given nothing, when a check is created, then it is created (status new)', () => {
      spec.given([]).when({ type: 'CreateHealthCheck', ...createdPayload }).then([created]);
      expect([created].reduce(healthCheckDecider.evolve, healthCheckDecider.initialState()).status).toBe('new');
    });
    it('given a check, when it is created again, then it is refused', () => {
      spec.given([created]).when({ type: 'CreateHealthCheck', ...createdPayload }).thenRefused('ALREADY_EXISTS');
    });
    it('given an invalid interval, when a check is created, then the payload schema refuses it', () => {
      expect(() => healthCheckDecider.decide({ type: 'CreateHealthCheck', ...createdPayload, intervalSeconds: 0 }, healthCheckDecider.initialState())).toThrow();
    });
  });

  describe('heartbeats', () => {
    it('given a new check, when an up heartbeat arrives, then it went up', () => {
      spec.given([created]).when(beat('2030-01-01T00:00:00.000Z')).then([wentUp]);
    });
    it('given an up check, when an up heartbeat arrives, then nothing is appended', () => {
      spec.given([created, wentUp]).when(beat('2030-01-01T00:00:10.000Z')).then([]);
    });
    it('given a down check, when an up heartbeat arrives, then it recovered', () => {
      spec
        .given([created, wentUp, overdue])
        .when(beat('2030-01-01T00:05:00.000Z'))
        .then([{ type: 'HealthCheckRecovered', payload: { checkId, heartbeatAt: '2030-01-01T00:05:00.000Z', downSince: '2030-01-01T00:01:30.000Z' } }]);
    });
    it('given an up check, when a fail heartbeat arrives, then it went down with the message', () => {
      spec
        .given([created, wentUp])
        .when(beat('2030-01-01T00:00:20.000Z', 'fail', 'disk full'))
        .then([
          {
            type: 'HealthCheckWentDown',
            payload: { checkId, reason: 'failure-reported', lastHeartbeatAt: '2030-01-01T00:00:20.000Z', deadline: null, message: 'disk full' },
          },
        ]);
    });
    it('given a check down on its last heartbeat, when that heartbeat (or an older one) is applied again, then it stays down', () => {
      // A reaper that read a stale read model re-applies the heartbeat the check went overdue on.
      spec.given([created, wentUp, overdue]).when(beat('2030-01-01T00:00:00.000Z')).then([]);
      spec.given([created, wentUp, overdue]).when(beat('2029-12-31T23:59:59.000Z')).then([]);
    });
    it('given a check down on a reported failure, when an up heartbeat older than the failure is applied, then it stays down', () => {
      const failed: HealthCheckEvent = {
        type: 'HealthCheckWentDown',
        payload: { checkId, reason: 'failure-reported', lastHeartbeatAt: '2030-01-01T00:00:20.000Z', deadline: null, message: 'disk full' },
      };
      spec.given([created, wentUp, failed]).when(beat('2030-01-01T00:00:10.000Z')).then([]);
      spec
        .given([created, wentUp, failed])
        .when(beat('2030-01-01T00:00:21.000Z'))
        .then([{ type: 'HealthCheckRecovered', payload: { checkId, heartbeatAt: '2030-01-01T00:00:21.000Z', downSince: '2030-01-01T00:00:20.000Z' } }]);
    });
    it('given a down check, when a fail heartbeat arrives, then nothing is appended', () => {
      spec.given([created, wentUp, overdue]).when(beat('2030-01-01T00:05:00.000Z', 'fail')).then([]);
    });
    it('given a paused check, when any heartbeat arrives, then nothing is appended (recorded, never alerts)', () => {
      spec.given([created, wentUp, paused]).when(beat('2030-01-01T00:05:00.000Z')).then([]);
      spec.given([created, wentUp, paused]).when(beat('2030-01-01T00:05:00.000Z', 'fail')).then([]);
    });
    it('given a deleted check, when a heartbeat arrives, then it is not found', () => {
      spec.given([created, deleted]).when(beat('2030-01-01T00:05:00.000Z')).thenRefused('NOT_FOUND');
    });
    it('given no check, when a heartbeat arrives, then it is not found', () => {
      spec.given([]).when(beat('2030-01-01T00:05:00.000Z')).thenRefused('NOT_FOUND');
    });
  });

  describe('overdue', () => {
    it('given an up check past interval + grace, when the reaper asks, then it went down at the deadline', () => {
      spec.given([created, wentUp]).when(markOverdue('2030-01-01T00:01:30.001Z')).then([overdue]);
    });
    it('given an up check exactly at its deadline, when the reaper asks, then nothing is appended', () => {
      spec.given([created, wentUp]).when(markOverdue('2030-01-01T00:01:30.000Z')).then([]);
    });
    it('given a check already down, when a second replica asks, then nothing is appended (idempotent)', () => {
      spec.given([created, wentUp, overdue]).when(markOverdue('2030-01-01T00:10:00.000Z')).then([]);
    });
    it('given a check that recovered on a newer heartbeat, when a reaper asks with the older one it read, then the newer one counts', () => {
      const recovered: HealthCheckEvent = { type: 'HealthCheckRecovered', payload: { checkId, heartbeatAt: '2030-01-01T00:05:00.000Z', downSince: '2030-01-01T00:01:30.000Z' } };
      // Past the old heartbeat's deadline, before the new one's: nothing.
      spec.given([created, wentUp, overdue, recovered]).when(markOverdue('2030-01-01T00:06:00.000Z')).then([]);
      spec
        .given([created, wentUp, overdue, recovered])
        .when(markOverdue('2030-01-01T00:06:30.001Z'))
        .then([
          {
            type: 'HealthCheckWentDown',
            payload: { checkId, reason: 'overdue', lastHeartbeatAt: '2030-01-01T00:05:00.000Z', deadline: '2030-01-01T00:06:30.000Z', message: null },
          },
        ]);
    });
    it('given a new check that never had a heartbeat, when the reaper asks, then it stays new', () => {
      spec.given([created]).when(markOverdue('2030-01-01T10:00:00.000Z')).then([]);
    });
    it('given a paused check, when the reaper asks, then it never goes down', () => {
      spec.given([created, wentUp, paused]).when(markOverdue('2030-01-01T10:00:00.000Z')).then([]);
    });
    it('given a deleted check, when the reaper asks, then it is not found', () => {
      spec.given([created, wentUp, deleted]).when(markOverdue('2030-01-01T10:00:00.000Z')).thenRefused('NOT_FOUND');
    });
  });

  describe('pause, resume, change, rotate, delete', () => {
    it('given an up check, when it is paused, then it is paused; pausing again changes nothing', () => {
      spec.given([created, wentUp]).when({ type: 'PauseHealthCheck', checkId }).then([paused]);
      spec.given([created, wentUp, paused]).when({ type: 'PauseHealthCheck', checkId }).then([]);
    });
    it('given a paused check, when it is resumed, then it is new again; resuming a running check changes nothing', () => {
      spec.given([created, paused]).when({ type: 'ResumeHealthCheck', checkId }).then([{ type: 'HealthCheckResumed', payload: { checkId } }]);
      const state = [created, wentUp, paused, { type: 'HealthCheckResumed', payload: { checkId } } as HealthCheckEvent].reduce(
        healthCheckDecider.evolve,
        healthCheckDecider.initialState(),
      );
      expect(state.status).toBe('new');
      spec.given([created, wentUp]).when({ type: 'ResumeHealthCheck', checkId }).then([]);
    });
    it('given a check, when it is changed, then the full new settings are recorded; the same values change nothing', () => {
      spec
        .given([created])
        .when({ type: 'UpdateHealthCheck', checkId, changes: { intervalSeconds: 300 } })
        .then([{ type: 'HealthCheckUpdated', payload: { checkId, ...settings, intervalSeconds: 300 } }]);
      spec.given([created]).when({ type: 'UpdateHealthCheck', checkId, changes: { name: settings.name, tags: ['ops'] } }).then([]);
    });
    it('given a check, when its token is rotated, then the new hash is recorded', () => {
      spec
        .given([created])
        .when({ type: 'RotateHealthCheckToken', checkId, tokenHash: 'h2', tokenPrefix: 'hct_efgh' })
        .then([{ type: 'HealthCheckTokenRotated', payload: { checkId, tokenHash: 'h2', tokenPrefix: 'hct_efgh' } }]);
    });
    it('given a deleted check, when anything is asked of it, then it is not found', () => {
      for (const command of [
        { type: 'PauseHealthCheck' as const, checkId },
        { type: 'ResumeHealthCheck' as const, checkId },
        { type: 'DeleteHealthCheck' as const, checkId },
        { type: 'UpdateHealthCheck' as const, checkId, changes: { name: 'x' } },
        { type: 'RotateHealthCheckToken' as const, checkId, tokenHash: 'h2', tokenPrefix: 'hct_x' },
      ]) {
        spec.given([created, deleted]).when(command).thenRefused('NOT_FOUND');
      }
    });
  });

  it('every event in these examples matches its payload schema', () => {
    for (const e of [created, wentUp, overdue, paused, deleted]) expect(() => healthCheckEvents.parse(e)).not.toThrow();
  });
});
