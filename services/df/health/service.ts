import { randomUUID } from 'node:crypto';
import type { BusMessage, BusSubscription } from '#shared/bus/index.js';
import { applySchema } from '#shared/db/index.js';
import { aggregate, callerActor, commandContext, fold, type CommandActor } from '#shared/es/index.js';
import { AppError, found } from '#shared/errors.js';
import { HealthReport, decode, hostIdOf, requestDevice, type HealthSample, type MendingReport, subjects } from '#shared/wire/index.js';
import { DEFAULT_HEALTH_RULES, FAILING_END_REASONS, isHeldState, type MendingStep, deviceHealthStream, healthRulesStream, type DeviceHealthRecord, type HealthRules } from '#events/df/health.js';
import { deviceRow, findDevice, maintenancesOver, mendingsOver, placementOfDevice, type DeviceScope } from '#projections/df-devices/index.js';
import { closedSessionVerdicts } from '#projections/df-sessions/index.js';
import { deviceFailure } from '../core/device-errors.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { Platform } from '../../platform.js';
import type { Caller } from '../http.js';
import { QuarantineMailer } from './quarantine-mail.js';
import { deviceHealthDecider, endsMaintenance, healthRulesDecider, type DeviceHealthCommand, type HealthTenant } from './decide.js';
import { failedInARow, failedSessionsReason } from './failed-sessions.js';
import { giveBackBaselines } from './baselines.js';
import { DeviceMending } from './mending.js';

/** How many readings a device keeps (a day at the default minute; older ones are trimmed at each insert). */
export const SAMPLES_KEPT = 1_440;

/**
 * Readings are observations, not events (docs/architecture.md, "Read side"): a module table keeps the
 * newest `SAMPLES_KEPT` of each device for its charts; only a change of state is an event.
 */
const SAMPLES_SCHEMA = `
  CREATE TABLE IF NOT EXISTS df_health_samples (
    device_id text NOT NULL,
    at timestamptz NOT NULL,
    sample jsonb NOT NULL
  );
  CREATE INDEX IF NOT EXISTS df_health_samples_device_at ON df_health_samples (device_id, at);`;

/** The service's answer for a device's health and its readings. */
export interface DeviceHealthView {
  deviceId: string;
  health: DeviceHealthRecord | null;
  samples: HealthSample[];
  /** The newest mending steps (newest first, `MENDING_SHOWN` at most). */
  mending: MendingEntry[];
  /** When an administrator last had its settings baseline re-taken; null: never (it is the device as it joined). */
  baselineRetakenAt: string | null;
}

/** One recorded mending step, as the device's health shows it. */
export interface MendingEntry {
  step: MendingStep;
  attempt: number;
  result: 'ok' | 'failed' | 'skipped';
  error?: string;
  at: string;
}

/** How many of its newest mending steps a device's health shows. */
const MENDING_SHOWN = 20;

/**
 * What a maintenance tells the device's bookings (the module wires the booking gate here): a booking whose
 * range the maintenance overlaps is warned and kept; the warnings are lifted when the maintenance ends (its
 * end, or a quarantine that takes its place).
 */
export interface MaintenanceBookings {
  maintenanceStarted(deviceId: string, companyId: number, maintenance: { reason: string; until: string }, actor: CommandActor): Promise<unknown>;
  maintenanceEnded(deviceId: string, actor: CommandActor): Promise<unknown>;
}

/** Who acts when a host's reading moves a device: the agent of that host. */
const agentActor = (hostId: string, companyId: number | null): CommandActor => ({ actorId: `agent:${hostId}`, ...(companyId !== null ? { companyId } : {}) });

/**
 * Device health (docs/modules/device-health.md): takes each host's readings off the bus, keeps them in a
 * bounded series, and moves the device's health aggregate by the company's rules; an administrator's
 * maintenance and quarantine release; the company's rules.
 */
export class HealthService {
  private schema: Promise<void> | null = null;
  private subscription: BusSubscription | null = null;
  private readonly devices;
  private readonly rulesOf;
  /** Mails the company's administrators when one of its devices is quarantined. */
  private readonly mails: QuarantineMailer;
  /** Has unwell devices mended (`mending.ts`). */
  private readonly mending: DeviceMending;
  private readonly sweeper = new PeriodicJob(
    'maintenance-ends',
    (tick) => this.sweep(tick),
    (err) => this.platform.logger.warn({ err }, 'the maintenance sweep failed'),
  );

  constructor(
    private readonly platform: Platform,
    private readonly options: { bookings?: MaintenanceBookings } = {},
  ) {
    const deps = { store: platform.store, get readModels() { return platform.readModels; } };
    this.devices = aggregate(deps, { decider: deviceHealthDecider, stream: deviceHealthStream, readModels: ['df-devices'], oneAtATime: true });
    this.mails = new QuarantineMailer(platform);
    const systemMending = (tenant: HealthTenant): CommandActor => ({ actorId: 'system:device-mending', ...(tenant.companyId !== null ? { companyId: tenant.companyId } : {}) });
    this.mending = new DeviceMending(platform, {
      start: async (deviceId, tenant, helpersOnly, until) => {
        const result = await this.devices.run(deviceId, { type: 'StartMending', deviceId, helpersOnly, until, at: this.platform.now().toISOString(), ...tenant }, commandContext(this.platform, systemMending(tenant)));
        return result.events.some((e) => e.type === 'DeviceMendingStarted');
      },
      end: (deviceId, tenant, outcome) => this.run(deviceId, { type: 'EndMending', deviceId, outcome, at: this.platform.now().toISOString(), ...tenant }, systemMending(tenant)),
      recordStep: (hostId, deviceId, step) => this.recordMending(hostId, deviceId, step),
      quarantine: (deviceId, reason, tenant) =>
        this.run(deviceId, { type: 'QuarantineAfterMending', deviceId, reason, at: this.platform.now().toISOString(), ...tenant }, { actorId: 'system:device-mending', ...(tenant.companyId !== null ? { companyId: tenant.companyId } : {}) }),
    });
    this.rulesOf = aggregate(deps, { decider: healthRulesDecider, stream: (id) => healthRulesStream(Number(id)), readModels: [] });
  }

  /** Creates the samples table once. */
  ready(): Promise<void> {
    this.schema ??= applySchema(this.platform.db, 'df_health_samples', SAMPLES_SCHEMA);
    return this.schema;
  }

  /**
   * Listens to every host's readings (one replica of the service handles each: a queue group) and ends
   * maintenances at their end time every `sweepEveryMs`, whether or not the device is read.
   */
  async start(sweepEveryMs: number): Promise<void> {
    await this.ready();
    this.subscription = await this.platform.bus.subscribe(subjects.anyHealth(), (msg) => void this.onReport(msg), { queue: 'df-service' });
    this.sweeper.start(sweepEveryMs);
    await this.mails.start();
  }

  async stop(): Promise<void> {
    await this.sweeper.stop();
    await this.mails.stop();
    await this.subscription?.unsubscribe().catch(() => undefined);
    this.subscription = null;
  }

  /**
   * Ends every maintenance past its end time (each device comes back in the state its newest reading
   * gives), and every mending past its `until` with no end recorded (`timed-out`: the process that asked
   * stopped), so no device stays `mending` after a restart.
   */
  async sweep(tick: Tick = UNTRACED): Promise<void> {
    const now = this.platform.now();
    const over = await maintenancesOver(this.platform.db, now);
    tick.count('maintenances.over', over.length);
    for (const deviceId of over) await tick.work(() => this.endMaintenanceOver(deviceId, now));
    const mendings = await mendingsOver(this.platform.db, now);
    tick.count('mendings.over', mendings.length);
    for (const deviceId of mendings) await tick.work(() => this.endMendingOver(deviceId, now));
  }

  /** Ends the mending of `deviceId` whose `until` passed at `now` with no end recorded. */
  private async endMendingOver(deviceId: string, now: Date): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement) return;
    const command: DeviceHealthCommand = { type: 'EndMending', deviceId, outcome: 'timed-out', overOnly: true, at: now.toISOString(), companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    await this.run(deviceId, command, { actorId: 'system:health-sweep', ...(placement.companyId !== null ? { companyId: placement.companyId } : {}) });
  }

  /** Ends the maintenance of `deviceId`, over at `now`. */
  private async endMaintenanceOver(deviceId: string, now: Date): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement) return;
    const [latest, rules] = await Promise.all([this.latest(deviceId), this.rules(placement.companyId)]);
    const command: DeviceHealthCommand = { type: 'EndMaintenance', deviceId, by: 'end-time', latest, rules, at: now.toISOString(), companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    const actor = { actorId: 'system:health-sweep', ...(placement.companyId !== null ? { companyId: placement.companyId } : {}) };
    // Ended meanwhile by an administrator (or another replica's sweep): nothing to do.
    await this.run(deviceId, command, actor).catch((err: unknown) => {
      if ((err as { code?: string }).code !== 'DEVICE_NOT_IN_MAINTENANCE') throw err;
    });
  }

  private async onReport(msg: BusMessage): Promise<void> {
    let report: HealthReport;
    try {
      report = decode(HealthReport, msg.data);
    } catch (err) {
      this.platform.logger.warn({ subject: msg.subject, err: (err as Error).message }, 'invalid health report');
      return;
    }
    const hostId = hostIdOf(msg.subject) ?? '';
    if (report.sample) await this.record(hostId, report.deviceId, report.sample).catch((err: unknown) => this.platform.logger.warn({ err, deviceId: report.deviceId }, 'recording a health reading failed'));
    if (report.mending) await this.recordMending(hostId, report.deviceId, report.mending).catch((err: unknown) => this.platform.logger.warn({ err, deviceId: report.deviceId }, 'recording a mending step failed'));
    if (report.mendingStep) await this.recordStepBegun(hostId, report.deviceId, report.mendingStep.step).catch((err: unknown) => this.platform.logger.warn({ err, deviceId: report.deviceId }, 'recording a mending step begun failed'));
  }

  /** A host began a step of the mending under way on one of its devices (shown: `mending`, `reboot`); nothing when none is under way. */
  async recordStepBegun(hostId: string, deviceId: string, step: MendingStep): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement || placement.hostId !== hostId) return;
    const command: DeviceHealthCommand = { type: 'BeginMendingStep', deviceId, step, at: this.platform.now().toISOString(), companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    await this.run(deviceId, command, agentActor(hostId, placement.companyId));
  }

  /**
   * One mending step a host ran on one of its devices (another host's word is dropped): recorded on the
   * device's health; the third failed in a row quarantines it (`mending-failed`), which is mailed and heard by webhook.
   */
  async recordMending(hostId: string, deviceId: string, step: MendingReport): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement || placement.hostId !== hostId) return;
    const command: DeviceHealthCommand = { type: 'RecordMendingStep', deviceId, step, at: this.platform.now().toISOString(), companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    await this.run(deviceId, command, agentActor(hostId, placement.companyId));
  }

  /**
   * One reading of a device from its host: kept in the series and judged by the company's rules. A host
   * speaks only for the devices placed on it; another host's word is dropped.
   */
  async record(hostId: string, deviceId: string, sample: HealthSample): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement || placement.hostId !== hostId) return;
    await this.ready();
    const db = this.platform.db;
    // Filed and trimmed by when the service received it: a host's wrong clock cannot push its readings out of the window.
    await db.query(`INSERT INTO df_health_samples (device_id, at, sample) VALUES ($1, $2, $3::jsonb)`, [deviceId, this.platform.now().toISOString(), JSON.stringify(sample)]);
    await db.query(
      `DELETE FROM df_health_samples WHERE device_id = $1 AND at < (SELECT at FROM df_health_samples WHERE device_id = $1 ORDER BY at DESC OFFSET ${SAMPLES_KEPT - 1} LIMIT 1)`,
      [deviceId],
    );
    const tenant: HealthTenant = { companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    const rules = await this.rules(placement.companyId);
    const command: DeviceHealthCommand = { type: 'RecordHealthSample', deviceId, sample, rules, ...tenant };
    await this.run(deviceId, command, agentActor(hostId, placement.companyId), { settle: false });
    this.mending.afterReading(hostId, deviceId, tenant, sample, rules);
  }

  /** A company's rules (the defaults until it sets its own). */
  async rules(companyId: number | null): Promise<HealthRules> {
    if (companyId === null) return DEFAULT_HEALTH_RULES;
    const state = fold(healthRulesDecider, await this.platform.store.readStream(healthRulesStream(companyId)));
    return state.rules ?? DEFAULT_HEALTH_RULES;
  }

  /** Sets the caller's company's rules; answers them. */
  async setRules(caller: Caller, rules: HealthRules): Promise<HealthRules> {
    await this.rulesOf.run(String(caller.companyId), { type: 'SetHealthRules', companyId: caller.companyId, rules }, commandContext(this.platform, callerActor(caller)));
    return this.rules(caller.companyId);
  }

  /** A device the caller may see, with its health and readings between `from` and `to` (the newest `SAMPLES_KEPT` at most); 404 otherwise. */
  async health(scope: DeviceScope, deviceId: string, range: { from?: Date | undefined; to?: Date | undefined }): Promise<DeviceHealthView> {
    const device = found(await findDevice(this.platform.db, scope, deviceId), 'Device not found');
    await this.ready();
    const r = await this.platform.db.query<{ sample: unknown }>(
      `SELECT sample FROM df_health_samples WHERE device_id = $1 AND ($2::timestamptz IS NULL OR at >= $2) AND ($3::timestamptz IS NULL OR at <= $3) ORDER BY at ASC LIMIT ${SAMPLES_KEPT}`,
      [deviceId, range.from?.toISOString() ?? null, range.to?.toISOString() ?? null],
    );
    const samples = r.rows.map((row) => (typeof row.sample === 'string' ? JSON.parse(row.sample) : row.sample) as HealthSample);
    const mending: MendingEntry[] = [];
    let baselineRetakenAt: string | null = null;
    for (const e of (await this.platform.store.readStream(deviceHealthStream(deviceId))).reverse()) {
      if (e.type === 'DeviceBaselineRetaken') baselineRetakenAt ??= (e.payload as { at: string }).at;
      if (e.type !== 'DeviceMendingStep' || mending.length >= MENDING_SHOWN) continue;
      const { step, attempt, result, error, at } = e.payload as MendingEntry;
      mending.push({ step, attempt, result, ...(error ? { error } : {}), at });
    }
    return { deviceId, health: device.health, samples, mending, baselineRetakenAt };
  }

  /**
   * Takes a device the caller may see into maintenance until `until`; 404 for a device they may not see.
   * Then its company's bookings that the maintenance overlaps are told (kept, with a warning): also when
   * the same maintenance is asked again, so a request repeated after a failure tells whoever was missed.
   */
  async startMaintenance(caller: Caller, scope: DeviceScope, deviceId: string, input: { reason: string; until: string }): Promise<DeviceHealthRecord | null> {
    const tenant = await this.tenantOf(scope, deviceId);
    await this.run(deviceId, { type: 'StartMaintenance', deviceId, reason: input.reason, until: input.until, at: this.platform.now().toISOString(), ...tenant }, callerActor(caller));
    await this.options.bookings?.maintenanceStarted(deviceId, tenant.companyId!, { reason: input.reason, until: new Date(input.until).toISOString() }, callerActor(caller));
    return this.current(scope, deviceId);
  }

  /**
   * The maintenance under way on a device, with its company, or null: what a booking made or moved into it is
   * told (the reservation service reads it; `until` as the maintenance's start told the bookings already there).
   */
  async maintenanceOf(deviceId: string): Promise<{ companyId: number; reason: string; until: string } | null> {
    const state = fold(deviceHealthDecider, await this.platform.store.readStream(deviceHealthStream(deviceId)));
    if (state.health?.state !== 'maintenance' || !state.maintenance) return null;
    const companyId = (await placementOfDevice(this.platform.db, deviceId))?.companyId ?? null;
    return companyId === null ? null : { companyId, reason: state.maintenance.reason, until: new Date(state.maintenance.until).toISOString() };
  }

  /** Ends a device's maintenance: it comes back in the state its newest reading gives. */
  async endMaintenance(caller: Caller, scope: DeviceScope, deviceId: string): Promise<DeviceHealthRecord | null> {
    const tenant = await this.tenantOf(scope, deviceId);
    const [latest, rules] = await Promise.all([this.latest(deviceId), this.rules(tenant.companyId)]);
    await this.run(deviceId, { type: 'EndMaintenance', deviceId, by: 'administrator', latest, rules, at: this.platform.now().toISOString(), ...tenant }, callerActor(caller));
    return this.current(scope, deviceId);
  }

  /** Releases a quarantined device: healthy until its next reading says otherwise. */
  async releaseQuarantine(caller: Caller, scope: DeviceScope, deviceId: string): Promise<DeviceHealthRecord | null> {
    const tenant = await this.tenantOf(scope, deviceId);
    await this.run(deviceId, { type: 'ReleaseQuarantine', deviceId, at: this.platform.now().toISOString(), ...tenant }, callerActor(caller));
    // Released by an administrator (the device seen to): its readings may have it mended again at once.
    this.mending.released(deviceId);
    return this.current(scope, deviceId);
  }

  /**
   * Quarantines a device whose reset after a session failed (the agent's release said so): the system
   * acts, before the device is given back, so no allocation hands it out dirty.
   */
  async quarantineAfterFailedReset(deviceId: string, reason: string): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    const tenant = { companyId: placement?.companyId ?? null, workspaceIds: placement?.workspaceIds ?? null };
    await this.run(deviceId, { type: 'QuarantineAfterFailedReset', deviceId, reason, at: this.platform.now().toISOString(), ...tenant }, { actorId: 'system:device-reset', ...(tenant.companyId !== null ? { companyId: tenant.companyId } : {}) });
  }

  /**
   * An administrator has the device's settings baseline re-taken (what every session's end restores): its
   * host reads the settings now (`retakeBaseline`, outside any session) and keeps them; recorded as
   * `DeviceBaselineRetaken` (who, when, what). 404 for a device not of the caller's company; 409
   * `DEVICE_OFFLINE` while it is away; 409 `DEVICE_BUSY` while a session holds it (the read model says so
   * first, the device itself when a session came meanwhile); 409 `DEVICE_UNSUPPORTED` for a device whose
   * driver keeps no baseline (browsers, iOS).
   */
  async retakeBaseline(caller: Caller, scope: DeviceScope, deviceId: string): Promise<{ deviceId: string; settings: Record<string, string | null>; at: string }> {
    const tenant = await this.tenantOf(scope, deviceId);
    const row = (await deviceRow(this.platform.db, deviceId))!;
    if (row.sessionId) throw new AppError('DEVICE_BUSY', `The device is in session ${row.sessionId}: its baseline is re-taken only outside any session`);
    if (row.status === 'offline') throw new AppError('DEVICE_OFFLINE', 'The device is offline: its baseline is re-taken once it is back');
    const target = { hostId: row.hostId, deviceId, sessionId: `baseline-${randomUUID()}` };
    const answer = await requestDevice(this.platform.bus, target, { op: 'retakeBaseline' }, { timeoutMs: this.platform.config.DF_COMMAND_TIMEOUT }).catch((err: unknown) => {
      throw deviceFailure(err, 'command');
    });
    const at = this.platform.now().toISOString();
    await this.run(deviceId, { type: 'RecordBaselineRetaken', deviceId, settings: answer.settings, at, ...tenant }, callerActor(caller));
    return { deviceId, settings: answer.settings, at };
  }

  /** Devices that joined their host: each is given back the baseline an administrator re-took of it, if any (`baselines.ts`). */
  devicesJoined(hostId: string, deviceIds: readonly string[]): Promise<number> {
    return giveBackBaselines(this.platform, hostId, deviceIds);
  }

  /**
   * A session on the device closed, or a closed one got its outcome: when the company counts failed
   * sessions (`failedSessionsMax`) and that many in a row failed since the device's last release from
   * quarantine, it is quarantined (`sessions-failed`, actor `system:failed-sessions`). The count is read
   * from the sessions' read model each time, so it survives restarts and needs no memory here.
   */
  async sessionClosed(deviceId: string): Promise<void> {
    const placement = await placementOfDevice(this.platform.db, deviceId);
    if (!placement) return;
    const { failedSessionsMax: max } = await this.rules(placement.companyId);
    if (!max) return;
    const state = fold(deviceHealthDecider, await this.platform.store.readStream(deviceHealthStream(deviceId)));
    if (state.health?.state === 'quarantined') return;
    const run = failedInARow(await closedSessionVerdicts(this.platform.db, deviceId, state.sessionsCountFrom, max, FAILING_END_REASONS));
    if (run.count < max) return;
    const command: DeviceHealthCommand = { type: 'QuarantineAfterFailedSessions', deviceId, reason: failedSessionsReason(run.count, run.last), at: this.platform.now().toISOString(), companyId: placement.companyId, workspaceIds: placement.workspaceIds };
    await this.run(deviceId, command, { actorId: 'system:failed-sessions', ...(placement.companyId !== null ? { companyId: placement.companyId } : {}) });
  }

  /**
   * Runs a command on the device's health. When it ended a maintenance — its end, or a quarantine taking its
   * place — the bookings the maintenance warned have their warnings lifted, whatever ended it.
   */
  private async run(deviceId: string, command: DeviceHealthCommand, actor: CommandActor, options?: { settle?: boolean }): Promise<void> {
    const result = await this.devices.run(deviceId, command, commandContext(this.platform, actor), options);
    if (endsMaintenance(result.events)) await this.options.bookings?.maintenanceEnded(deviceId, actor);
  }

  private async tenantOf(scope: DeviceScope, deviceId: string): Promise<HealthTenant> {
    found(await findDevice(this.platform.db, scope, deviceId), 'Device not found');
    const placement = await placementOfDevice(this.platform.db, deviceId);
    // Only a device of the caller's own company (never the operator's shared pool): else it does not exist.
    if (!placement || placement.companyId !== scope.companyId) found(null, 'Device not found');
    return { companyId: placement!.companyId, workspaceIds: placement!.workspaceIds };
  }

  private async current(scope: DeviceScope, deviceId: string): Promise<DeviceHealthRecord | null> {
    return (await findDevice(this.platform.db, scope, deviceId))?.health ?? null;
  }

  private async latest(deviceId: string): Promise<HealthSample | null> {
    await this.ready();
    const r = await this.platform.db.query<{ sample: unknown }>(`SELECT sample FROM df_health_samples WHERE device_id = $1 ORDER BY at DESC LIMIT 1`, [deviceId]);
    const row = r.rows[0];
    return row ? ((typeof row.sample === 'string' ? JSON.parse(row.sample) : row.sample) as HealthSample) : null;
  }
}
