import { defineDecider } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import { MENDING_FAILURES_TO_QUARANTINE, type DeviceHealthRecord, type DeviceMendingRecord, type MendingOutcome, type MendingStep, type HealthEvent, type HealthRules, type HealthSample, type HealthState } from '#events/df/health.js';
import type { MendingReport } from '#shared/wire/index.js';
import { sameJson } from '#shared/canonical.js';
import { evaluate, recordOf } from './rules.js';

type Of<T extends HealthEvent['type']> = Extract<HealthEvent, { type: T }>;

/** Where a device is, for the event (webhooks address its company's workspaces). */
export interface HealthTenant {
  companyId: number | null;
  workspaceIds: number[] | null;
}

export interface DeviceHealthState {
  health: DeviceHealthRecord | null;
  maintenance: { reason: string; until: string } | null;
  /** Mending steps failed in a row since the last that succeeded (or the last quarantine). */
  failedMending: number;
  /**
   * Since when its sessions count towards `failedSessionsMax`: the last release of a quarantine (an
   * administrator saw to the device, so the sessions before it no longer count); null: every session.
   */
  sessionsCountFrom: string | null;
  /** The mending under way (from its start until its end, or its `until` when none was recorded); null: none. */
  mending: DeviceMendingRecord | null;
}

export type DeviceHealthCommand =
  | ({ type: 'RecordHealthSample'; deviceId: string; sample: HealthSample; rules: HealthRules } & HealthTenant)
  | ({ type: 'StartMaintenance'; deviceId: string; reason: string; until: string; at: string } & HealthTenant)
  /** `latest`: the newest reading, which decides the state the device comes back in. */
  | ({ type: 'EndMaintenance'; deviceId: string; by: 'administrator' | 'end-time'; latest: HealthSample | null; rules: HealthRules; at: string } & HealthTenant)
  | ({ type: 'ReleaseQuarantine'; deviceId: string; at: string } & HealthTenant)
  /** The reset after a session failed (`reason`): the device is quarantined rather than handed out dirty. */
  | ({ type: 'QuarantineAfterFailedReset'; deviceId: string; reason: string; at: string } & HealthTenant)
  /** One mending step the device's host ran; the third failed in a row quarantines the device (`mending-failed`). */
  | ({ type: 'RecordMendingStep'; deviceId: string; step: MendingReport; at: string } & HealthTenant)
  /**
   * Mending ran out of steps and the device is still unwell (`reason`: what is wrong and the last step):
   * quarantined as after three failed steps, even when fewer failed (a reboot the rules do not allow is skipped).
   */
  | ({ type: 'QuarantineAfterMending'; deviceId: string; reason: string; at: string } & HealthTenant)
  /** The company's `failedSessionsMax` sessions in a row failed on the device (`reason` says how many and the last failure). */
  | ({ type: 'QuarantineAfterFailedSessions'; deviceId: string; reason: string; at: string } & HealthTenant)
  /**
   * The service asks the host to mend the device (`helpersOnly`: the helpers' restart only), at most until
   * `until`. Nothing is decided while another mending is under way (not over by its `until`): the caller
   * asks nothing then. One whose `until` passed with no end recorded is ended `timed-out` first.
   */
  | ({ type: 'StartMending'; deviceId: string; helpersOnly: boolean; at: string; until: string } & HealthTenant)
  /** The host began a step of the mending under way; nothing when none is. */
  | ({ type: 'BeginMendingStep'; deviceId: string; step: MendingStep; at: string } & HealthTenant)
  /** The mending under way is over (`overOnly`: only when its `until` is past at `at`, the sweep's end of one whose asker is gone); nothing when none is. */
  | ({ type: 'EndMending'; deviceId: string; outcome: MendingOutcome; at: string; overOnly?: boolean } & HealthTenant)
  /** An administrator had the device's settings baseline re-taken; `settings`: what its host read. */
  | ({ type: 'RecordBaselineRetaken'; deviceId: string; settings: Record<string, string | null>; at: string } & HealthTenant);

type HealthChange = Of<'DeviceHealthChanged'> | Of<'DeviceMendingStep'> | Of<'DeviceBaselineRetaken'> | Of<'DeviceMendingStarted'> | Of<'DeviceMendingStepBegun'> | Of<'DeviceMendingEnded'>;

const stateOf = (s: DeviceHealthState): HealthState | null => s.health?.state ?? null;

/**
 * One device's health (`device-health-<deviceId>`): a reading changes it only when its state or
 * reasons change (the first reading is always recorded); an administrator takes it into maintenance
 * and out, and releases it from quarantine. A reading never moves a device out of maintenance.
 */
export const deviceHealthDecider = defineDecider<DeviceHealthCommand, HealthChange, DeviceHealthState>({
  initialState: () => ({ health: null, maintenance: null, failedMending: 0, sessionsCountFrom: null, mending: null }),
  evolve: {
    DeviceHealthChanged: (state, { payload }) => ({
      ...state,
      health: payload.health,
      maintenance: payload.maintenance ?? null,
      failedMending: payload.health.state === 'quarantined' ? 0 : state.failedMending,
      sessionsCountFrom: payload.cause === 'quarantine-released' ? payload.health.checkedAt : state.sessionsCountFrom,
    }),
    DeviceMendingStep: (state, { payload }) => ({ ...state, failedMending: payload.result === 'failed' ? state.failedMending + 1 : payload.result === 'ok' ? 0 : state.failedMending }),
    // A record of who re-took the baseline and what it holds; the device's health stays as it is.
    DeviceBaselineRetaken: (state) => state,
    DeviceMendingStarted: (state, { payload }) => ({ ...state, mending: { since: payload.at, until: payload.until, step: null } }),
    DeviceMendingStepBegun: (state, { payload }) => (state.mending ? { ...state, mending: { ...state.mending, step: payload.step } } : state),
    DeviceMendingEnded: (state) => ({ ...state, mending: null }),
  },
  decide: {
    RecordHealthSample: (c, state) => {
      const current = stateOf(state);
      // Maintenance is ended by an administrator or its end time, quarantine by a release: never by a reading.
      if (current === 'maintenance' || current === 'quarantined') return [];
      const verdict = evaluate(c.sample, c.rules, current);
      if (current === verdict.state && sameJson(state.health?.reasons ?? [], verdict.reasons)) return [];
      const health = recordOf(verdict, c.sample, c.sample.checkedAt);
      return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: current, health, cause: 'sample' } }];
    },
    StartMaintenance: (c, state) => {
      if (Date.parse(c.until) <= Date.parse(c.at)) throw new AppError('MAINTENANCE_END_IN_PAST', `The maintenance must end in the future (until ${c.until} is not after ${c.at})`, { details: [{ path: 'until', message: 'must be in the future' }] });
      const maintenance = { reason: c.reason, until: c.until };
      if (stateOf(state) === 'maintenance' && sameJson(state.maintenance, maintenance)) return [];
      const health: DeviceHealthRecord = { ...(state.health ?? { checkedAt: c.at }), state: 'maintenance', reasons: [`maintenance until ${c.until}: ${c.reason}`], until: c.until };
      return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: stateOf(state), health, cause: 'maintenance-started', maintenance } }];
    },
    EndMaintenance: (c, state) => {
      if (stateOf(state) !== 'maintenance') throw new AppError('DEVICE_NOT_IN_MAINTENANCE', 'The device is not in maintenance');
      const verdict = c.latest ? evaluate(c.latest, c.rules, null) : { state: 'healthy' as const, reasons: [] };
      const health = recordOf(verdict, c.latest, c.at);
      return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: 'maintenance', health, cause: 'maintenance-ended' } }];
    },
    ReleaseQuarantine: (c, state) => {
      if (stateOf(state) !== 'quarantined') throw new AppError('DEVICE_NOT_QUARANTINED', 'The device is not quarantined');
      // Healthy until its next reading says otherwise (a battery that still fails quarantines it again).
      const health: DeviceHealthRecord = { ...state.health!, state: 'healthy', reasons: [], checkedAt: c.at };
      return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: 'quarantined', health, cause: 'quarantine-released' } }];
    },
    QuarantineAfterFailedReset: (c, state) => {
      const reasons = [`reset after the session failed: ${c.reason}`.slice(0, 500)];
      if (stateOf(state) === 'quarantined' && sameJson(state.health?.reasons, reasons)) return [];
      const health: DeviceHealthRecord = { ...(state.health ?? {}), state: 'quarantined', reasons, checkedAt: c.at };
      delete health.until;
      return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: stateOf(state), health, cause: 'reset-failed' } }];
    },
    RecordMendingStep: (c, state) => {
      const { step, attempt, result, error } = c.step;
      const tenant = { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds };
      const recorded: HealthChange = { type: 'DeviceMendingStep', payload: { ...tenant, step, attempt, result, ...(error ? { error } : {}), at: c.at } };
      const failed = result === 'failed' ? state.failedMending + 1 : 0;
      // Already held by a quarantine: the steps are recorded, the quarantine stands as it is.
      if (failed < MENDING_FAILURES_TO_QUARANTINE || stateOf(state) === 'quarantined') return [recorded];
      const reasons = [`mending failed ${failed} steps in a row, the last ${step} (attempt ${attempt})${error ? `: ${error}` : ''}`.slice(0, 500)];
      const health: DeviceHealthRecord = { ...(state.health ?? {}), state: 'quarantined', reasons, checkedAt: c.at };
      delete health.until;
      return [recorded, { type: 'DeviceHealthChanged', payload: { ...tenant, from: stateOf(state), health, cause: 'mending-failed' } }];
    },
    QuarantineAfterMending: (c, state) => quarantine(c, state, `mending did not mend it: ${c.reason}`, 'mending-failed'),
    // A standing quarantine (of any cause) stands as it is; a maintenance gives way, as to every quarantine.
    QuarantineAfterFailedSessions: (c, state) => quarantine(c, state, c.reason, 'sessions-failed'),
    StartMending: (c, state) => {
      const tenant = { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds };
      const under = state.mending;
      if (under && Date.parse(under.until) > Date.parse(c.at)) return [];
      const started: HealthChange = { type: 'DeviceMendingStarted', payload: { ...tenant, helpersOnly: c.helpersOnly, at: c.at, until: c.until } };
      // A mending whose asker never recorded its end (a process that stopped) is over at its time-out.
      return under ? [{ type: 'DeviceMendingEnded', payload: { ...tenant, outcome: 'timed-out', at: under.until } }, started] : [started];
    },
    BeginMendingStep: (c, state) => {
      if (!state.mending || state.mending.step === c.step) return [];
      return [{ type: 'DeviceMendingStepBegun', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, step: c.step, at: c.at } }];
    },
    EndMending: (c, state) => {
      if (!state.mending || (c.overOnly && Date.parse(state.mending.until) > Date.parse(c.at))) return [];
      return [{ type: 'DeviceMendingEnded', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, outcome: c.outcome, at: c.at } }];
    },
    RecordBaselineRetaken: (c) => [{ type: 'DeviceBaselineRetaken', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, settings: c.settings, at: c.at } }],
  },
});

/**
 * Quarantines the device for `reason` unless a quarantine holds it already (three failed mending steps,
 * or anything else, quarantined it first: that quarantine stands).
 */
function quarantine(c: { deviceId: string; at: string } & HealthTenant, state: DeviceHealthState, reason: string, cause: 'mending-failed' | 'sessions-failed'): HealthChange[] {
  if (stateOf(state) === 'quarantined') return [];
  const health: DeviceHealthRecord = { ...(state.health ?? {}), state: 'quarantined', reasons: [reason.slice(0, 500)], checkedAt: c.at };
  delete health.until;
  return [{ type: 'DeviceHealthChanged', payload: { deviceId: c.deviceId, companyId: c.companyId, workspaceIds: c.workspaceIds, from: stateOf(state), health, cause } }];
}

/**
 * Whether what a command decided ends a maintenance: the device left `maintenance` — its end (by an
 * administrator or its end time) or a quarantine, which gives no way to a maintenance but takes its place.
 * The bookings it warned are told then (`MaintenanceBookings.maintenanceEnded`).
 */
export function endsMaintenance(events: readonly { type: string; payload: unknown }[]): boolean {
  return events.some((e) => {
    if (e.type !== 'DeviceHealthChanged') return false;
    const p = e.payload as Of<'DeviceHealthChanged'>['payload'];
    return p.from === 'maintenance' && p.health.state !== 'maintenance';
  });
}

/** A company's health rules (`df-health-rules-<companyId>`): a change is recorded only when something differs. */
export const healthRulesDecider = defineDecider<{ type: 'SetHealthRules'; companyId: number; rules: HealthRules }, Of<'DfHealthRulesSet'>, { rules: HealthRules | null }>({
  initialState: () => ({ rules: null }),
  evolve: {
    // Rules set before `rebootAllowed` existed allow no reboot; before `failedSessionsMax`, failed sessions quarantine nothing; before `fastPathDownDegrades`, a fast path down degrades.
    DfHealthRulesSet: (_, { payload: { companyId: _c, ...rules } }) => ({
      rules: { ...rules, rebootAllowed: rules.rebootAllowed ?? false, failedSessionsMax: rules.failedSessionsMax ?? 0, fastPathDownDegrades: rules.fastPathDownDegrades ?? true },
    }),
  },
  decide: {
    SetHealthRules: ({ companyId, rules }, state) => (state.rules && sameJson(state.rules, rules) ? [] : [{ type: 'DfHealthRulesSet', payload: { companyId, ...rules } }]),
  },
});
