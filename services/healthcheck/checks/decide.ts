import { type Decider, firstEvent } from '#shared/es/decider.js';
import { AppError } from '#shared/errors.js';
import { healthCheckEvents, type CheckStatus, type HealthCheckEvent } from '#events/healthcheck/checks.js';
import { unreachable } from '#shared/unreachable.js';

type Created = Extract<HealthCheckEvent, { type: 'HealthCheckCreated' }>['payload'];
type Settings = Pick<Created, 'name' | 'description' | 'intervalSeconds' | 'graceSeconds' | 'tags'>;

export interface HealthCheckState {
  check: Created | null;
  status: CheckStatus;
  deleted: boolean;
  /** Since when the check is down; null unless down. */
  downSince: string | null;
}

export type HealthCheckCommand =
  | ({ type: 'CreateHealthCheck' } & Created)
  | { type: 'UpdateHealthCheck'; checkId: string; changes: Partial<Settings> }
  | { type: 'RotateHealthCheckToken'; checkId: string; tokenHash: string; tokenPrefix: string }
  | { type: 'PauseHealthCheck'; checkId: string }
  | { type: 'ResumeHealthCheck'; checkId: string }
  | { type: 'DeleteHealthCheck'; checkId: string }
  /** A heartbeat already stored; `at` is when it was received. */
  | { type: 'RecordHeartbeat'; checkId: string; at: string; status: 'up' | 'fail'; message: string | null }
  /** The reaper saw the last heartbeat at `lastHeartbeatAt` and asks at `now` whether the check is overdue. */
  | { type: 'MarkOverdue'; checkId: string; lastHeartbeatAt: string; now: string };

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * A health check. Heartbeats themselves are not events (they are stored in a bounded table); only
 * the state changes they cause are: `new → up` (WentUp), `up → down` (WentDown, overdue or a reported
 * failure), `down → up` (Recovered). A paused check records heartbeats but changes no state; resuming
 * starts it again from `new`. Deciding a transition twice yields nothing the second time, so replicas
 * racing on one check append the event once (the loser's retry finds it already applied).
 */
export const healthCheckDecider: Decider<HealthCheckCommand, HealthCheckEvent, HealthCheckState> = {
  initialState: () => ({ check: null, status: 'new', deleted: false, downSince: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'HealthCheckCreated':
        return { ...state, check: event.payload, status: 'new' };
      case 'HealthCheckUpdated': {
        if (!state.check) return state;
        const { checkId: _id, ...settings } = event.payload;
        return { ...state, check: { ...state.check, ...settings } };
      }
      case 'HealthCheckTokenRotated':
        return state.check ? { ...state, check: { ...state.check, tokenHash: event.payload.tokenHash, tokenPrefix: event.payload.tokenPrefix } } : state;
      case 'HealthCheckPaused':
        return { ...state, status: 'paused', downSince: null };
      case 'HealthCheckResumed':
        return { ...state, status: 'new' };
      case 'HealthCheckDeleted':
        return { ...state, deleted: true };
      case 'HealthCheckWentUp':
      case 'HealthCheckRecovered':
        return { ...state, status: 'up', downSince: null };
      case 'HealthCheckWentDown':
        return { ...state, status: 'down', downSince: event.payload.reason === 'overdue' ? event.payload.deadline : event.payload.lastHeartbeatAt };
      default:
        return unreachable(event);
    }
  },
  decide(command, state) {
    if (command.type === 'CreateHealthCheck') return healthCheckEvents.checked([firstEvent(state.check, 'Health check', 'HealthCheckCreated', command)]);
    const check = state.check;
    if (!check || state.deleted) throw new AppError('NOT_FOUND', 'Health check not found');
    const { checkId } = command;
    switch (command.type) {
      case 'UpdateHealthCheck': {
        const next: Settings = {
          name: command.changes.name ?? check.name,
          description: command.changes.description ?? check.description,
          intervalSeconds: command.changes.intervalSeconds ?? check.intervalSeconds,
          graceSeconds: command.changes.graceSeconds ?? check.graceSeconds,
          tags: command.changes.tags ?? check.tags,
        };
        const unchanged =
          next.name === check.name &&
          next.description === check.description &&
          next.intervalSeconds === check.intervalSeconds &&
          next.graceSeconds === check.graceSeconds &&
          sameTags(next.tags, check.tags);
        return unchanged ? [] : healthCheckEvents.checked([{ type: 'HealthCheckUpdated', payload: { checkId, ...next } }]);
      }
      case 'RotateHealthCheckToken':
        return healthCheckEvents.checked([{ type: 'HealthCheckTokenRotated', payload: { checkId, tokenHash: command.tokenHash, tokenPrefix: command.tokenPrefix } }]);
      case 'PauseHealthCheck':
        return state.status === 'paused' ? [] : healthCheckEvents.checked([{ type: 'HealthCheckPaused', payload: { checkId } }]);
      case 'ResumeHealthCheck':
        return state.status === 'paused' ? healthCheckEvents.checked([{ type: 'HealthCheckResumed', payload: { checkId } }]) : [];
      case 'DeleteHealthCheck':
        return healthCheckEvents.checked([{ type: 'HealthCheckDeleted', payload: { checkId } }]);
      case 'RecordHeartbeat': {
        if (state.status === 'paused') return [];
        if (command.status === 'fail') {
          if (state.status === 'down') return [];
          return healthCheckEvents.checked([
            { type: 'HealthCheckWentDown', payload: { checkId, reason: 'failure-reported', lastHeartbeatAt: command.at, deadline: null, message: command.message } },
          ]);
        }
        if (state.status === 'new') return healthCheckEvents.checked([{ type: 'HealthCheckWentUp', payload: { checkId, heartbeatAt: command.at } }]);
        if (state.status === 'down') return healthCheckEvents.checked([{ type: 'HealthCheckRecovered', payload: { checkId, heartbeatAt: command.at, downSince: state.downSince } }]);
        return [];
      }
      case 'MarkOverdue': {
        if (state.status !== 'up') return [];
        const deadline = Date.parse(command.lastHeartbeatAt) + (check.intervalSeconds + check.graceSeconds) * 1000;
        if (!(deadline < Date.parse(command.now))) return [];
        return healthCheckEvents.checked([
          {
            type: 'HealthCheckWentDown',
            payload: { checkId, reason: 'overdue', lastHeartbeatAt: command.lastHeartbeatAt, deadline: new Date(deadline).toISOString(), message: null },
          },
        ]);
      }
      default:
        return unreachable(command, 'command');
    }
  },
};
