import { defineDecider, firstEvent } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { healthCheckEvents, type CheckStatus, type HealthCheckEvent } from '#events/healthcheck/checks.js';

type Created = Extract<HealthCheckEvent, { type: 'HealthCheckCreated' }>['payload'];
type Settings = Pick<Created, 'name' | 'description' | 'intervalSeconds' | 'graceSeconds' | 'tags'>;

export interface HealthCheckState {
  check: Created | null;
  status: CheckStatus;
  deleted: boolean;
  /** Since when the check is down; null unless down. */
  downSince: string | null;
  /**
   * The newest heartbeat the stream's events name (the one a check went up, recovered or went down on).
   * A heartbeat not newer than it was already decided on: applying it again changes nothing.
   */
  lastHeartbeatAt: string | null;
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

/** The check a command acts on: 404 once deleted or before it exists. */
function liveCheck(state: HealthCheckState): Created {
  if (!state.check || state.deleted) throw new AppError('NOT_FOUND', 'Health check not found');
  return state.check;
}

const up = (state: HealthCheckState, event: { payload: { heartbeatAt: string } }): HealthCheckState => ({
  ...state,
  status: 'up',
  downSince: null,
  lastHeartbeatAt: later(state.lastHeartbeatAt, event.payload.heartbeatAt),
});

/** The later of two ISO times (null: none). */
const later = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a);

/** Whether a heartbeat at `at` was already decided on (it is not newer than the newest the events name). */
const alreadyDecided = (state: HealthCheckState, at: string): boolean => state.lastHeartbeatAt !== null && !(Date.parse(at) > Date.parse(state.lastHeartbeatAt));

/**
 * A health check. Heartbeats themselves are not events (they are stored in a bounded table); only
 * the state changes they cause are: `new → up` (WentUp), `up → down` (WentDown, overdue or a reported
 * failure), `down → up` (Recovered). A paused check records heartbeats but changes no state; resuming
 * starts it again from `new`. Deciding a transition twice yields nothing the second time, so replicas
 * racing on one check append the event once (the loser's retry finds it already applied).
 */
export const healthCheckDecider = defineDecider<HealthCheckCommand, HealthCheckEvent, HealthCheckState>({
  initialState: () => ({ check: null, status: 'new', deleted: false, downSince: null, lastHeartbeatAt: null }),
  evolve: {
    HealthCheckCreated: (state, event) => ({ ...state, check: event.payload, status: 'new' }),
    HealthCheckUpdated: (state, event) => {
      if (!state.check) return state;
      const { checkId: _id, ...settings } = event.payload;
      return { ...state, check: { ...state.check, ...settings } };
    },
    HealthCheckTokenRotated: (state, event) =>
      state.check ? { ...state, check: { ...state.check, tokenHash: event.payload.tokenHash, tokenPrefix: event.payload.tokenPrefix } } : state,
    HealthCheckPaused: (state) => ({ ...state, status: 'paused', downSince: null }),
    HealthCheckResumed: (state) => ({ ...state, status: 'new' }),
    HealthCheckDeleted: (state) => ({ ...state, deleted: true }),
    HealthCheckWentUp: up,
    HealthCheckRecovered: up,
    HealthCheckWentDown: (state, event) => ({
      ...state,
      status: 'down',
      downSince: event.payload.reason === 'overdue' ? event.payload.deadline : event.payload.lastHeartbeatAt,
      lastHeartbeatAt: later(state.lastHeartbeatAt, event.payload.lastHeartbeatAt),
    }),
  },
  decide: {
    CreateHealthCheck: (command, state) => healthCheckEvents.checked([firstEvent(state.check, 'Health check', 'HealthCheckCreated', command)]),
    UpdateHealthCheck: ({ checkId, changes }, state) => {
      const check = liveCheck(state);
      const next: Settings = {
        name: changes.name ?? check.name,
        description: changes.description ?? check.description,
        intervalSeconds: changes.intervalSeconds ?? check.intervalSeconds,
        graceSeconds: changes.graceSeconds ?? check.graceSeconds,
        tags: changes.tags ?? check.tags,
      };
      const unchanged =
        next.name === check.name &&
        next.description === check.description &&
        next.intervalSeconds === check.intervalSeconds &&
        next.graceSeconds === check.graceSeconds &&
        sameTags(next.tags, check.tags);
      return unchanged ? [] : healthCheckEvents.checked([{ type: 'HealthCheckUpdated', payload: { checkId, ...next } }]);
    },
    RotateHealthCheckToken: ({ checkId, tokenHash, tokenPrefix }, state) => {
      liveCheck(state);
      return healthCheckEvents.checked([{ type: 'HealthCheckTokenRotated', payload: { checkId, tokenHash, tokenPrefix } }]);
    },
    PauseHealthCheck: ({ checkId }, state) => {
      liveCheck(state);
      return state.status === 'paused' ? [] : healthCheckEvents.checked([{ type: 'HealthCheckPaused', payload: { checkId } }]);
    },
    ResumeHealthCheck: ({ checkId }, state) => {
      liveCheck(state);
      return state.status === 'paused' ? healthCheckEvents.checked([{ type: 'HealthCheckResumed', payload: { checkId } }]) : [];
    },
    DeleteHealthCheck: ({ checkId }, state) => {
      liveCheck(state);
      return healthCheckEvents.checked([{ type: 'HealthCheckDeleted', payload: { checkId } }]);
    },
    RecordHeartbeat: (command, state) => {
      liveCheck(state);
      const { checkId } = command;
      if (state.status === 'paused') return [];
      if (command.status === 'fail') {
        if (state.status === 'down') return [];
        return healthCheckEvents.checked([
          { type: 'HealthCheckWentDown', payload: { checkId, reason: 'failure-reported', lastHeartbeatAt: command.at, deadline: null, message: command.message } },
        ]);
      }
      if (state.status === 'new') return healthCheckEvents.checked([{ type: 'HealthCheckWentUp', payload: { checkId, heartbeatAt: command.at } }]);
      // The heartbeat the check went down on (or one before it), applied again by a reaper that read a
      // stale read model, does not bring it back: only a newer one does.
      if (state.status === 'down' && alreadyDecided(state, command.at)) return [];
      if (state.status === 'down') return healthCheckEvents.checked([{ type: 'HealthCheckRecovered', payload: { checkId, heartbeatAt: command.at, downSince: state.downSince } }]);
      return [];
    },
    MarkOverdue: ({ checkId, lastHeartbeatAt, now }, state) => {
      const check = liveCheck(state);
      if (state.status !== 'up') return [];
      // A reaper's candidate may be older than the heartbeat the check last recovered on: the newer counts.
      const last = later(lastHeartbeatAt, state.lastHeartbeatAt) ?? lastHeartbeatAt;
      const deadline = Date.parse(last) + (check.intervalSeconds + check.graceSeconds) * 1000;
      if (!(deadline < Date.parse(now))) return [];
      return healthCheckEvents.checked([
        { type: 'HealthCheckWentDown', payload: { checkId, reason: 'overdue', lastHeartbeatAt: last, deadline: new Date(deadline).toISOString(), message: null } },
      ]);
    },
  },
});
