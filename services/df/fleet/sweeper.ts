import type { Logger } from 'pino';
import { activeSessionsPastLimits, closedAndKnownSessions, sessionById, workspacesWithActiveSessions } from '#projections/df-sessions/index.js';
import { sessionLimitsOf } from '#projections/df-settings/index.js';
import type { Database } from '#shared/db/index.js';
import { PeriodicJob } from '../core/periodic.js';
import { UNTRACED, type Tick } from '#shared/tracing/index.js';
import type { SessionPort } from '../core/session-port.js';
import type { FleetService } from './service.js';

/** A slot whose session never appeared in the read model for this long was left by a crashed create. */
const ORPHAN_SLOT_MS = 5 * 60_000;

export interface FleetSweeperDeps {
  db: Database;
  logger: Logger;
  now: () => Date;
  /** The plan limits whose slot tables the sweep frees. */
  fleet: Pick<FleetService, 'ready'>;
  sessions: Pick<SessionPort, 'end'>;
  /** The longest a session lasts in a workspace that set none (`DF_SESSION_MAX_DURATION`). */
  maxSessionSeconds: number;
}

/**
 * The sweeper that ends sessions past their workspace's idle time-out or maximum length. It ends
 * sessions, so the module builds it after the sessions service (the plan limits, which sessions ask,
 * are built before).
 */
export class FleetSweeper {
  private readonly sweeper = new PeriodicJob(
    'session-limits',
    (tick) => this.sweep(tick),
    (err) => this.deps.logger.warn({ err }, 'session limit sweep failed'),
  );

  constructor(private readonly deps: FleetSweeperDeps) {}

  start(everyMs: number): void {
    this.sweeper.start(everyMs);
  }

  stop(): Promise<void> {
    return this.sweeper.stop();
  }

  /**
   * Ends active sessions past their workspace's maximum length (`max-duration`) or idle time-out
   * (`idle-timeout`), and frees slots whose sessions are closed or never appeared (a crash mid-create).
   */
  async sweep(tick: Tick = UNTRACED): Promise<void> {
    await this.deps.fleet.ready();
    const now = this.deps.now();
    const workspaces = await workspacesWithActiveSessions(this.deps.db);
    const limits = await sessionLimitsOf(this.deps.db, workspaces);
    const due = await activeSessionsPastLimits(this.deps.db, now, this.deps.maxSessionSeconds, workspaces, limits);
    for (const { sessionId, reason } of due) {
      const session = await sessionById(this.deps.db, sessionId);
      if (!session || session.status !== 'active') continue;
      tick.count('sessions.ended');
      await tick.work(async () => {
        this.deps.logger.info({ sessionId, reason }, 'ending a session past its workspace limit');
        await this.deps.sessions.end(session, reason, 'system').catch((err: unknown) => this.deps.logger.warn({ err, sessionId }, 'ending a session failed'));
      });
    }
    tick.count('slots.freed', await this.freeClosedSlots(new Date(now.getTime() - ORPHAN_SLOT_MS)));
  }

  /** Frees the slots of sessions the read model shows closed, and those taken before `orphanedBefore` whose session it never showed. */
  private async freeClosedSlots(orphanedBefore: Date): Promise<number> {
    const slots = await this.deps.db.query<{ session_id: string; old: boolean }>(`SELECT session_id, taken_at < $1::timestamptz AS old FROM df_quota_session_slots`, [orphanedBefore.toISOString()]);
    if (slots.rows.length === 0) return 0;
    const { closed, known } = await closedAndKnownSessions(this.deps.db, slots.rows.map((row) => row.session_id));
    const freed = slots.rows.filter((row) => closed.has(row.session_id) || (row.old && !known.has(row.session_id))).map((row) => row.session_id);
    if (freed.length > 0) await this.deps.db.query(`DELETE FROM df_quota_session_slots WHERE session_id = ANY($1::text[])`, [freed]);
    return freed.length;
  }
}
