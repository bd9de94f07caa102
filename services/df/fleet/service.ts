import type { Logger } from 'pino';
import { QUOTA_KEYS, quotaPlanStream, sessionDefaultsStream, type QuotaLimits, type SessionDefaults } from '#events/df/fleet.js';
import { countActiveApiKeys } from '#projections/df-api-keys/index.js';
import { reservationHoursInMonth, sessionMinutesThisMonth } from '#projections/df-reports/index.js';
import { findQuotaPlan, findSessionDefaults } from '#projections/df-settings/index.js';
import type { BlobStore } from '#shared/blob/index.js';
import { applySchema, type Database } from '#shared/db/index.js';
import { callerActor, commandContext, handleCommand } from '#shared/es/index.js';
import type { EventStore } from '#shared/es/index.js';
import { AppError } from '#shared/errors.js';
import type { ReadModelWaiter } from '../../platform.js';
import { companyBlobPrefix } from '../core/blob-keys.js';
import type { Caller } from '../http.js';
import type { SessionFleetHooks } from '../core/session-port.js';
import { quotaPlanDecider, sessionDefaultsDecider } from './decide.js';

export type QuotaKey = keyof QuotaLimits;
export interface Quotas {
  plan: string;
  limits: QuotaLimits;
  usage: Record<QuotaKey, number>;
}

/**
 * The serialisation point of concurrent sessions: one lock row per company and one slot row per
 * open session, taken in one transaction (docs/modules/device-testing.md, "Quotas"). Not events: a
 * slot is bookkeeping of a rule, and the sessions themselves are the record.
 */
const QUOTA_SCHEMA = `
  CREATE TABLE IF NOT EXISTS df_quota_locks (company_id integer PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS df_quota_session_slots (
    session_id text PRIMARY KEY,
    company_id integer NOT NULL,
    taken_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS df_quota_session_slots_company ON df_quota_session_slots (company_id);`;

const exceeded = (limit: QuotaKey, value: number, usage: number, what: string) =>
  new AppError('QUOTA_EXCEEDED', `Quota exceeded: ${what} (limit ${value}, in use ${usage})`, { details: [{ path: limit, message: `The plan allows ${value}`, limit, value, usage }] });

export interface FleetDeps {
  db: Database;
  store: EventStore;
  blobs: BlobStore;
  logger: Logger;
  readModels: ReadModelWaiter;
  now: () => Date;
  /** The configuration's plan (`DF_QUOTA_*`), which a company's own limits override. */
  defaultPlan: { plan: string; limits: QuotaLimits };
  /** Session defaults of a workspace that set none (`DF_SESSION_IDLE_TIMEOUT`, `DF_SESSION_MAX_DURATION`). */
  defaultSession: SessionDefaults;
}

/**
 * Plan limits and their enforcement, and session defaults per workspace. It needs no sessions, so the
 * module builds it before the sessions service (which asks it through `SessionFleetHooks`); the
 * sweeper that ends sessions past their limits is `sweeper.ts`, built after.
 */
export class FleetService implements SessionFleetHooks {
  private schema: Promise<void> | null = null;
  /** Stores of one company in this process run one at a time, so two cannot both pass the storage check. */
  private storing = new Map<number, Promise<unknown>>();

  constructor(private readonly deps: FleetDeps) {}

  /** Creates the slot tables once (the sweeper frees slots there too). */
  ready(): Promise<void> {
    this.schema ??= applySchema(this.deps.db, 'df_quota', QUOTA_SCHEMA);
    return this.schema;
  }

  // ---- plan and usage

  async plan(companyId: number): Promise<{ plan: string; limits: QuotaLimits }> {
    const own = await findQuotaPlan(this.deps.db, companyId);
    if (!own) return this.deps.defaultPlan;
    return { plan: own.plan, limits: { ...this.deps.defaultPlan.limits, ...own.limits } };
  }

  async quotas(companyId: number): Promise<Quotas> {
    await this.ready();
    const { plan, limits } = await this.plan(companyId);
    const now = this.deps.now();
    const [concurrentSessions, sessionMinutes, reservationHours, storageBytes, apiKeys] = await Promise.all([
      this.openSlots(companyId),
      this.sessionMinutes(companyId, now),
      this.reservationHours(companyId, now),
      this.deps.blobs.usage(companyBlobPrefix(companyId)),
      this.activeKeys(companyId),
    ]);
    return { plan, limits, usage: { concurrentSessions, sessionMinutesPerMonth: sessionMinutes, reservationHoursPerMonth: reservationHours, storageBytes, apiKeys } };
  }

  /** Changes a company's plan: its name and the limits it has of its own (null: no limit; absent: the configuration's). */
  async setPlan(caller: Caller, change: { plan?: string | undefined; limits?: Partial<QuotaLimits> | undefined }): Promise<Quotas> {
    const own = await findQuotaPlan(this.deps.db, caller.companyId);
    const limits: Partial<QuotaLimits> = { ...(own?.limits ?? {}) };
    for (const key of QUOTA_KEYS) if (change.limits && key in change.limits) limits[key] = change.limits[key] ?? null;
    const result = await handleCommand({
      store: this.deps.store,
      streamId: quotaPlanStream(caller.companyId),
      decider: quotaPlanDecider,
      command: { type: 'SetQuotaPlan', companyId: caller.companyId, plan: change.plan ?? own?.plan ?? this.deps.defaultPlan.plan, limits },
      context: commandContext(this.deps, callerActor(caller)),
    });
    if (result.position !== null) await this.deps.readModels.waitFor(result.position, { names: ['df-settings'] });
    return this.quotas(caller.companyId);
  }

  private async openSlots(companyId: number): Promise<number> {
    const r = await this.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM df_quota_session_slots WHERE company_id = $1`, [companyId]);
    return r.rows[0]!.n;
  }

  /** Minutes in session this calendar month (UTC), running sessions up to now. */
  private sessionMinutes(companyId: number, now: Date): Promise<number> {
    return sessionMinutesThisMonth(this.deps.db, companyId, now);
  }

  /** Hours booked (cancelled bookings excluded) of bookings starting in the month (UTC) of `at`. */
  private async reservationHours(companyId: number, at: Date): Promise<number> {
    return Math.round((await reservationHoursInMonth(this.deps.db, companyId, at)) * 100) / 100;
  }

  private activeKeys(companyId: number): Promise<number> {
    return countActiveApiKeys(this.deps.db, companyId);
  }

  // ---- enforcement (SessionFleetHooks and the other modules' checks)

  /**
   * Takes a concurrent-session slot for a new session, or refuses with QUOTA_EXCEEDED. The company's
   * lock row serialises every take of one company (across replicas too: a row lock in the shared
   * database), so 20 concurrent creates against a limit of 3 get exactly 3 slots.
   */
  async admitSession(caller: Caller, sessionId: string): Promise<void> {
    await this.ready();
    const { limits } = await this.plan(caller.companyId);
    if (limits.sessionMinutesPerMonth !== null) {
      const used = await this.sessionMinutes(caller.companyId, this.deps.now());
      if (used >= limits.sessionMinutesPerMonth) throw exceeded('sessionMinutesPerMonth', limits.sessionMinutesPerMonth, used, 'session minutes this month');
    }
    const max = limits.concurrentSessions;
    await this.deps.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO df_quota_locks (company_id) VALUES ($1) ON CONFLICT (company_id) DO NOTHING`, [caller.companyId]);
      await tx.query(`SELECT company_id FROM df_quota_locks WHERE company_id = $1 FOR UPDATE`, [caller.companyId]);
      if (max !== null) {
        const open = (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM df_quota_session_slots WHERE company_id = $1`, [caller.companyId])).rows[0]!.n;
        if (open >= max) throw exceeded('concurrentSessions', max, open, 'concurrent sessions');
      }
      await tx.query(`INSERT INTO df_quota_session_slots (session_id, company_id, taken_at) VALUES ($1,$2,$3) ON CONFLICT (session_id) DO NOTHING`, [sessionId, caller.companyId, this.deps.now().toISOString()]);
    });
  }

  /** The session is closed (ended, failed, or never created): its slot is free. */
  async sessionClosed(sessionId: string): Promise<void> {
    await this.ready();
    await this.deps.db.query(`DELETE FROM df_quota_session_slots WHERE session_id = $1`, [sessionId]);
  }

  /** A new session's defaults (recording, screenshot format) from its workspace. */
  async sessionDefaults(workspaceId: number): Promise<SessionDefaults> {
    return (await findSessionDefaults(this.deps.db, workspaceId)) ?? this.deps.defaultSession;
  }

  /**
   * Stores `bytes` more of the company's blobs through `write`, or refuses with QUOTA_EXCEEDED and
   * writes nothing. Stores of one company in this process are checked and written one at a time.
   */
  async withStorage<T>(companyId: number, bytes: number, write: () => Promise<T>): Promise<T> {
    const previous = this.storing.get(companyId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(async () => {
      const { limits } = await this.plan(companyId);
      if (limits.storageBytes !== null) {
        const used = await this.deps.blobs.usage(companyBlobPrefix(companyId));
        if (used + bytes > limits.storageBytes) throw exceeded('storageBytes', limits.storageBytes, used, `storage (${bytes} more bytes asked for)`);
      }
      return write();
    });
    this.storing.set(companyId, run);
    try {
      return await run;
    } finally {
      if (this.storing.get(companyId) === run) this.storing.delete(companyId);
    }
  }

  /** Whether `bytes` more fit the company's storage (an upload about to be signed); 403 QUOTA_EXCEEDED otherwise. */
  async admitUpload(companyId: number, bytes: number): Promise<void> {
    const { limits } = await this.plan(companyId);
    if (limits.storageBytes === null) return;
    const used = await this.deps.blobs.usage(companyBlobPrefix(companyId));
    if (used + bytes > limits.storageBytes) throw exceeded('storageBytes', limits.storageBytes, used, `storage (an upload of ${bytes} bytes)`);
  }

  /** Whether anything more may be stored (a recording about to start). */
  async checkStorage(companyId: number): Promise<void> {
    const { limits } = await this.plan(companyId);
    if (limits.storageBytes === null) return;
    const used = await this.deps.blobs.usage(companyBlobPrefix(companyId));
    if (used >= limits.storageBytes) throw exceeded('storageBytes', limits.storageBytes, used, 'storage');
  }

  /** A booking of `startAt`–`endAt` fits the month's reserved hours. */
  async checkReservation(companyId: number, startAt: Date, endAt: Date, replacing?: { startAt: string; endAt: string }): Promise<void> {
    const { limits } = await this.plan(companyId);
    const max = limits.reservationHoursPerMonth;
    if (max === null) return;
    let used = await this.reservationHours(companyId, startAt);
    if (replacing && new Date(replacing.startAt).getUTCMonth() === startAt.getUTCMonth() && new Date(replacing.startAt).getUTCFullYear() === startAt.getUTCFullYear()) {
      used -= (new Date(replacing.endAt).getTime() - new Date(replacing.startAt).getTime()) / 3_600_000;
    }
    const asked = (endAt.getTime() - startAt.getTime()) / 3_600_000;
    if (used + asked > max) throw exceeded('reservationHoursPerMonth', max, Math.round(used * 100) / 100, `reserved hours this month (${Math.round(asked * 100) / 100} more asked for)`);
  }

  /** One more API key fits the plan. */
  async checkApiKey(companyId: number): Promise<void> {
    const { limits } = await this.plan(companyId);
    if (limits.apiKeys === null) return;
    const n = await this.activeKeys(companyId);
    if (n >= limits.apiKeys) throw exceeded('apiKeys', limits.apiKeys, n, 'API keys');
  }

  // ---- session defaults

  async setSessionDefaults(caller: Caller, defaults: SessionDefaults): Promise<SessionDefaults> {
    const result = await handleCommand({
      store: this.deps.store,
      streamId: sessionDefaultsStream(caller.workspaceId),
      decider: sessionDefaultsDecider,
      command: { type: 'SetSessionDefaults', workspaceId: caller.workspaceId, companyId: caller.companyId, ...defaults },
      context: commandContext(this.deps, callerActor(caller)),
    });
    if (result.position !== null) await this.deps.readModels.waitFor(result.position, { names: ['df-settings'] });
    return this.sessionDefaults(caller.workspaceId);
  }

  /** The idle time-out of a workspace's sessions (the module's default when it set none). */
  async idleTimeoutMs(workspaceId: number): Promise<number> {
    return (await this.sessionDefaults(workspaceId)).idleTimeoutSeconds * 1000;
  }
}
